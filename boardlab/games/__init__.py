"""The built-in games, registered by import path so that nothing is imported until used."""

#: Game id -> ``"module:Class"``.
BUILTIN: dict[str, str] = {
    "dungeons-jewel": "boardlab.games.dungeons_jewel.game:DungeonsJewel",
}
