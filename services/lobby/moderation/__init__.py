"""Moderation: roles, mutes, hidden messages, reports, bans, and the log of who did what."""
