"""Limits and quotas shared by every lobby replica through Redis (docs/accounts.md)."""
