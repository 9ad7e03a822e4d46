"""Exchanging tracks with the world outside the track file: pictures, other games' formats."""
