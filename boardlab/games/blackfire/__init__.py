"""Blackfire (seed 000): a two-player race for the Orb of Blackfire through a castle."""
