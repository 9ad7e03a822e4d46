"""Rules: grid_pit (being written)."""
