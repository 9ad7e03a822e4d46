"""Rules: geometry (being written)."""
