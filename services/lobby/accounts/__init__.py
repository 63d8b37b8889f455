"""Accounts: names, passwords, sessions (access and refresh tokens), guests, erasure (docs/accounts.md)."""
