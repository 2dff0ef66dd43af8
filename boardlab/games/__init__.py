"""The built-in games, registered by import path so that nothing is imported until used."""

#: Game id -> ``"module:Class"``.
BUILTIN: dict[str, str] = {
    "armies": "boardlab.games.armies.game:ArmiesGame",
    "blackfire": "boardlab.games.blackfire.game:BlackfireGame",
    "dungeons-jewel": "boardlab.games.dungeons_jewel.game:DungeonsJewel",
    "summoners-quest": "boardlab.games.summoners_quest.game:SummonersQuestGame",
    "wizards-labyrinth": "boardlab.games.wizards_labyrinth.game:WizardsLabyrinthGame",
}
