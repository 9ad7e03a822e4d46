"""Rules: corners (being written)."""
