"""The Wizard's Labyrinth (seed 001): one wizard against 2-4 heroes."""
