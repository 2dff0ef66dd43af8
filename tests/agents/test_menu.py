"""The bot choices offered to people (lobby, play)."""

from boardlab.agents import check_spec, menu_specs
from boardlab.engine import make


def test_menu_offers_levels_first_personas_by_name_and_no_cheats():
    for gid in ["dungeons-jewel", "blackfire", "toy"]:
        game = make(gid)
        specs = menu_specs(type(game))
        assert specs[:3] == ["easy", "medium", "hard"]
        assert "omniscient-mcts" not in specs and "first" not in specs and "persona" not in specs
        assert [s for s in specs if s.startswith("persona:")] == [f"persona:{p}" for p in sorted(game.personas)]
        if "heuristic" in game.agents:
            assert "heuristic" in specs
        for spec in specs:
            check_spec(spec, game)  # every offered spec is valid as it stands
