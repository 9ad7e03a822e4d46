"""Rules: references (being written)."""
