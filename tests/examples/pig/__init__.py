"""Pig, the smallest game on simlab's kit: the example of docs/adding_a_game.md (not registered by default)."""
