"""Summoner's Quest (seed 004): a ring race with summons, spells, equipment and traps, and a king-of-the-hill centre."""
