"""Rules: shortest_path (being written)."""
