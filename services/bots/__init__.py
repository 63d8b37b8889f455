"""The bot worker: plays bot-held seats and forced moves, off the request path (`python -m bots`)."""
