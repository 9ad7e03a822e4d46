"""Rules: reachability (being written)."""
