"""The arena: lineups, intervals, ratings, JSON shape, CLI errors, determinism."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.agents.arena import agent_scores, ladder, lineups, rate, run_arena, wilson, with_budget
from boardlab.cli import main
from boardlab.engine import make
from boardlab.agents.runner import GameRecord


@settings(max_examples=60, deadline=None)
@given(k=st.integers(1, 6), players=st.integers(2, 4))
def test_every_agent_sits_in_every_seat_equally_often(k, players):
    agents = [f"a{i}" for i in range(k)]
    table = lineups(agents, players)
    assert all(len(lu) == players for lu in table)
    for seat in range(players):
        counts = Counter(lu[seat] for lu in table)
        assert set(counts) == set(agents)
        assert len(set(counts.values())) == 1, (seat, counts)
    if k > players:  # every group of `players` agents meets
        groups = {frozenset(lu) for lu in table}
        assert len(groups) == len(list(__import__("itertools").combinations(range(k), players)))


def test_wilson_matches_known_values():
    lo, hi = wilson(60, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.5020, 0.6906)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    lo, hi = wilson(5, 10)
    assert abs((lo + hi) / 2 - 0.5) < 1e-9 and lo < 0.5 < hi


def test_agent_scores_average_copies_and_respect_teams():
    assert agent_scores(["a", "b", "a", "b"], [1, 0, 1, 0]) == {"a": 1.0, "b": 0.0}
    assert agent_scores(["a", "b", "a", "b"], [0, 0, 1, 0]) == {"a": 0.5, "b": 0.0}


def _rec(scores):
    return GameRecord(seed=0, scores=tuple(scores), winners=tuple(i for i, s in enumerate(scores) if s), truncated=False,
                      reason="", turns=1, decisions=1, roles=())


def test_ratings_rank_the_winner_first_in_multiplayer():
    played = [(("a", "b", "c"), _rec([1, 0, 0])), (("b", "c", "a"), _rec([0, 0, 1])), (("c", "a", "b"), _rec([0, 1, 0]))] * 5
    rows = rate(["c", "b", "a"], played)["agents"]
    assert rows[0]["agent"] == "a" and rows[0]["win_rate"] == 1.0
    assert rows[0]["rating"] > 25 > rows[-1]["rating"]
    assert all(r["games"] == 15 for r in rows)


def test_arena_report_is_independent_of_jobs_and_shares_deals():
    game = make("toy")
    agents = ["ismcts:iterations=10", "random", "first"]
    one = run_arena(game, agents, 12, seed=5, jobs=1)
    two = run_arena(game, agents, 12, seed=5, jobs=2)
    assert one["agents"] == two["agents"]
    assert one["games"] == 12 and one["deals"] == 2 and len(one["lineups"]) == 6
    assert {r["agent"] for r in one["agents"]} == set(agents)
    assert all(r["games"] == 8 for r in one["agents"])
    assert all(r["ci_low"] <= r["win_rate"] <= r["ci_high"] for r in one["agents"])


def test_arena_rounds_games_up_to_whole_deals():
    rep = run_arena(make("toy", players=3), ["random", "first"], 5, seed=1)
    assert rep["games"] == 6 and rep["deals"] == 3


def test_arena_rejects_bad_input():
    game = make("toy")
    with pytest.raises(ValueError):
        run_arena(game, ["random", "random"], 4)
    with pytest.raises(ValueError):
        run_arena(game, ["random", "first"], 0)
    with pytest.raises(ValueError):
        ladder(game, "ismcts", [10], 4)


def test_with_budget_replaces_iterations():
    assert with_budget("ismcts", 50) == "ismcts:iterations=50"
    assert with_budget("ismcts:iterations=9:depth=3", 50) == "ismcts:depth=3:iterations=50"


def test_ladder_rows_follow_budgets():
    rep = ladder(make("toy"), "ismcts", [2, 40], 8, seed=2)
    assert [r["budget"] for r in rep["ladder"]] == [2, 40]
    assert rep["ladder"][1]["agent"] == "ismcts:iterations=40"


def run_cli(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_cli_json_shape(capsys):
    code, out, err = run_cli(capsys, "arena", "toy", "--agents", "ismcts:iterations=5,random", "--games", "4", "--seed", "3", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["game"] == "toy" and doc["games"] == 4
    assert [sorted(r) for r in doc["agents"]] == [sorted(["agent", "games", "wins", "win_rate", "ci_low", "ci_high", "rating", "sigma", "ordinal"])] * 2
    for row in doc["agents"]:
        assert isinstance(row["rating"], float) and 0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1


def test_cli_ladder_and_table(capsys):
    code, out, err = run_cli(capsys, "arena", "toy", "--ladder", "ismcts", "--budgets", "2,8", "--games", "4")
    assert code == 0, err
    assert "ismcts:iterations=8" in out and "ladder" in out and "95% CI" in out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["arena", "toy", "--agents", "random,nosuchagent", "--games", "2"], "nosuchagent"),
        (["arena", "toy", "--agents", "random,random", "--games", "2"], "twice"),
        (["arena", "toy", "--agents", "random", "--games", "2"], "at least two"),
        (["arena", "nosuchgame", "--agents", "random,first", "--games", "2"], "nosuchgame"),
        (["arena", "toy", "--agents", "random,first", "--games", "0"], "games"),
        (["arena", "toy", "--games", "2"], "--agents"),
        (["arena", "toy", "--ladder", "ismcts", "--budgets", "5,x", "--games", "2"], "budgets"),
        (["arena", "toy", "--ladder", "random", "--games", "2"], "iterations"),
        (["arena", "toy", "--agents", "random,first", "--games", "2", "--players", "9"], "players"),
        (["arena", "toy", "--agents", "random,first", "--games", "2", "--variant", "nope"], "nope"),
        (["arena", "toy", "--agents", "ismcts:iterations=-3,first", "--games", "2"], "iterations"),
        (["arena", "toy", "--agents", "persona:x,first", "--games", "2"], "persona"),
    ],
)
def test_cli_bad_arguments_give_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert err.startswith("boardlab: error:") and err.count("\n") == 1, err
    assert needle in err


def test_field_lineups_put_each_agent_alone_in_each_seat():
    table = lineups(["a", "b"], 3, field="f")
    assert table == [("a", "f", "f"), ("f", "a", "f"), ("f", "f", "a"), ("b", "f", "f"), ("f", "b", "f"), ("f", "f", "b")]


def test_field_mode_scores_the_tested_seat_only():
    # the field agent itself is a valid entrant: its row is the baseline
    rep = run_arena(make("agents-race", players=4, options={"teams": True}), ["ismcts:iterations=15", "random"], 16, seed=1, field="random")
    assert rep["field"] == "random" and rep["games"] == 16
    rows = {r["agent"]: r for r in rep["agents"]}
    assert set(rows) == {"ismcts:iterations=15", "random"}
    assert rows["ismcts:iterations=15"]["games"] == 8 and rows["random"]["games"] == 8
    assert rows["ismcts:iterations=15"]["win_rate"] > rows["random"]["win_rate"]
    by_seat = rows["ismcts:iterations=15"]["by_seat"]
    assert [c["seat"] for c in by_seat] == [0, 1, 2, 3] and all(c["games"] == 2 for c in by_seat)
    assert sum(c["win_rate"] for c in by_seat) / 4 == rows["ismcts:iterations=15"]["win_rate"]


def test_cli_field(capsys):
    code, out, err = run_cli(capsys, "arena", "toy", "--agents", "first", "--field", "random", "--games", "4", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["field"] == "random" and [r["agent"] for r in doc["agents"]] == ["first"]
    code, out, err = run_cli(capsys, "arena", "toy", "--agents", "first", "--field", "nobody", "--games", "4")
    assert code == 2 and "nobody" in err


def test_head_to_head_counts_each_meeting():
    played = [(("a", "b", "c"), _rec([1, 0, 0])), (("b", "c", "a"), _rec([0, 0, 1])), (("c", "a", "b"), _rec([0, 0, 0]))]
    head = {(h["agent"], h["opponent"]): h for h in rate(["a", "b", "c"], played)["head_to_head"]}
    assert head[("a", "b")]["games"] == 3 and head[("a", "b")]["score"] == round(2.5 / 3, 4)
    assert head[("b", "c")]["score"] == 0.5


def test_sides_lineups_give_each_agent_a_whole_side():
    roles = ("wizard", "hero", "hero", "hero")
    assert lineups(["a", "b"], 4, roles=roles) == [("a", "b", "b", "b"), ("b", "a", "a", "a")]
    assert lineups(["a", "b"], 2, roles=("seat 0", "seat 1")) == lineups(["a", "b"], 2)
    with pytest.raises(ValueError, match="one agent per side"):
        lineups(["a", "b", "c"], 3, roles=("wizard", "hero", "hero"))
    with pytest.raises(ValueError, match="field"):
        lineups(["a", "b"], 3, field="f", roles=("wizard", "hero", "hero"))


def test_sides_mode_scores_each_agent_by_its_side():
    rep = run_arena(make("wizards-labyrinth", players=3), ["heuristic", "random"], 4, seed=3, sides=True)
    assert rep["sides"] is True and rep["lineups"] == [["heuristic", "random", "random"], ["random", "heuristic", "heuristic"]]
    rows = {r["agent"]: r for r in rep["agents"]}
    # one side wins every game, so the two agents' scores add up to the number of games
    assert rows["heuristic"]["wins"] + rows["random"]["wins"] == 4
    assert rep["head_to_head"][0]["games"] == 4


def test_cli_sides(capsys):
    code, out, err = run_cli(capsys, "arena", "wizards-labyrinth", "--players", "3", "--sides",
                             "--agents", "heuristic,random", "--games", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["lineups"] == [["heuristic", "random", "random"], ["random", "heuristic", "heuristic"]]
    code, out, err = run_cli(capsys, "arena", "wizards-labyrinth", "--players", "3", "--sides",
                             "--agents", "heuristic,random,first", "--games", "2")
    assert code == 2 and "one agent per side" in err and len(err.strip().splitlines()) == 1


def _played(monkeypatch):
    """Count the games the arena actually plays."""
    import boardlab.agents.arena as arena

    count = []
    real = arena._play_tasks

    def counting(args):
        count.extend(args[1])
        return real(args)

    monkeypatch.setattr(arena, "_play_tasks", counting)
    return count


def test_log_resumes_a_stopped_arena_without_replaying(tmp_path, monkeypatch):
    game = make("toy")
    agents = ["ismcts:iterations=5", "random"]
    whole = run_arena(game, agents, 12, seed=4)
    log = tmp_path / "arena.jsonl"
    played = _played(monkeypatch)
    first = run_arena(game, agents, 6, seed=4, log=log)
    assert len(played) == 6 and len(log.read_text().splitlines()) == 1 + 6
    resumed = run_arena(game, agents, 12, seed=4, log=log)
    assert len(played) == 12  # only the 6 new games were played
    assert resumed["agents"] == whole["agents"] and resumed["games"] == 12
    assert first["games"] == 6
    again = run_arena(game, agents, 12, seed=4, log=log)
    assert len(played) == 12 and again["agents"] == whole["agents"]


def test_log_drops_a_line_cut_short_and_replays_that_game(tmp_path, monkeypatch):
    game = make("toy")
    agents = ["first", "random"]
    whole = run_arena(game, agents, 8, seed=2)
    log = tmp_path / "arena.jsonl"
    run_arena(game, agents, 8, seed=2, log=log)
    text = log.read_text()
    log.write_text(text[: len(text) - 7])  # a run killed while writing its last game
    played = _played(monkeypatch)
    assert run_arena(game, agents, 8, seed=2, log=log)["agents"] == whole["agents"]
    assert len(played) == 1
    assert len(log.read_text().splitlines()) == 1 + 8


def test_log_of_another_arena_or_not_a_log_is_refused(tmp_path, capsys):
    from boardlab.engine.errors import SaveFileError

    game = make("toy")
    log = tmp_path / "arena.jsonl"
    run_arena(game, ["first", "random"], 2, seed=2, log=log)
    before = log.read_text()
    with pytest.raises(SaveFileError, match="different arena.*seed"):
        run_arena(game, ["first", "random"], 2, seed=3, log=log)
    with pytest.raises(SaveFileError, match="agents"):
        run_arena(game, ["random", "first"], 2, seed=2, log=log)
    assert log.read_text() == before  # nothing written
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\n")
    with pytest.raises(SaveFileError, match="not an arena log"):
        run_arena(game, ["first", "random"], 2, seed=2, log=bad)
    lines = before.splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([lines[0], "{oops", lines[1]]) + "\n")
    with pytest.raises(SaveFileError, match="line 2"):
        run_arena(game, ["first", "random"], 2, seed=2, log=broken)
    code, out, err = run_cli(capsys, "arena", "toy", "--agents", "first,random", "--games", "2", "--seed", "9",
                             "--log", str(log))
    assert code == 2 and "different arena" in err and len(err.strip().splitlines()) == 1
