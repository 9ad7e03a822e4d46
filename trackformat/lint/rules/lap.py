"""Rules: lap (being written)."""
