"""Armies: chess + cards (seed 002)."""
