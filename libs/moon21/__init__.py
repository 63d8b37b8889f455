"""The 21Moon rules engine (pure)."""
