"""The Dungeon's Jewel (seed 003): a dungeon crawl to the dragon's jewel and back home."""
