"""compare treats a draw as half a point (issue 35): a game that always draws and one that draws often.

``drawcoin`` is a one-decision toy registered by a fixture for this module only: a game is a draw with
probability ``draw`` percent, otherwise seat 0 wins with probability ``bias`` percent.  Both random numbers
come from the game's seed, so two runs on the same seeds draw in the same games whatever ``bias`` is, and
the pairing is exact.  Goofspiel with two cards a suit (examples/goofspiel) is the real game that draws
often: about half its games end level.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.engine import Game, Option, Results, State, registry
from boardlab.playtest.compare import (
    compare_many,
    compare_rows,
    comparison_verdict,
    forest_plot,
    markdown_comparison,
    markdown_many,
    role_points,
    seat_points,
    sign_test,
)
from boardlab.playtest.run import execute, plan_run
from boardlab.playtest.store import RunDir


class DrawCoinState(State):
    __slots__ = ("outcome",)

    def _setup(self) -> None:
        self.outcome = None
        self.begin_turn()

    def _current_seat(self) -> int:
        return 0

    def _legal_actions(self):
        return [("flip",)]

    def _apply(self, action) -> None:
        draw, bias = self.rng.below(100), self.rng.below(100)
        opts = self.game.option_values
        self.outcome = "draw" if draw < opts["draw"] else (0 if bias < opts["bias"] else 1)

    def _is_over(self) -> bool:
        return self.outcome is not None

    def _results(self) -> Results:
        if self.outcome == "draw":
            return Results((0.5, 0.5), (), False, "a draw")
        return Results(tuple(1.0 if s == self.outcome else 0.0 for s in range(2)), (self.outcome,), False, "coin")

    def _view(self, seat):
        return {"outcome": self.outcome}


class DrawCoinGame(Game):
    id = "drawcoin"
    name = "Draw coin"
    description = "A draw with probability draw%, else seat 0 wins with probability bias% (compare tests only)."
    min_players = max_players = default_players = 2
    options = (Option("draw", 100, "Percent chance of a draw", "int", low=0, high=100),
               Option("bias", 50, "Percent chance that seat 0 wins a game that is not drawn", "int", low=0, high=100))
    state_class = DrawCoinState


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(autouse=True, scope="module")
def registered():
    """drawcoin and Goofspiel, for this module only: other modules see the registry unchanged."""
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    from goofspiel.game import GoofspielGame

    with pytest.MonkeyPatch.context() as mp:
        for gid, cls in (("drawcoin", DrawCoinGame), ("goofspiel", GoofspielGame)):
            mp.setitem(registry._extra, gid, cls)
            mp.setitem(registry._cache, gid, cls)
        yield


def rows_of(tmp_path: Path, name: str, games: int = 60, game: str = "drawcoin", **options) -> list[dict]:
    out = tmp_path / name
    execute(plan_run(game, games=games, agents=["random"], seed=7, options=options), out, jobs=1)
    return RunDir(out).read_results()


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


# -- the score of a game --------------------------------------------------------------------------------------


def test_a_draw_is_an_equal_share_a_truncated_game_nobodys():
    two = {"winners": [], "roles": ["seat 0", "seat 1"], "winner_roles": [], "truncated": False}
    three = {"winners": [], "roles": ["wizard", "hero", "hero"], "winner_roles": [], "truncated": False}
    capped = dict(two, truncated=True)
    won = dict(two, winners=[1], winner_roles=["seat 1"])
    assert [seat_points(two, s, 2) for s in range(2)] == [0.5, 0.5]
    assert [seat_points(three, s, 3) for s in range(3)] == [1 / 3] * 3
    assert role_points(three, "wizard") == role_points(three, "hero") == 0.5  # two sides share the draw
    assert role_points(three, "dragon") == 0.0  # a side that did not play gets nothing
    assert [seat_points(capped, s, 2) for s in range(2)] == [0.0, 0.0]
    assert [seat_points(won, s, 2) for s in range(2)] == [0.0, 1.0]


def test_the_sign_test_counts_a_loss_turned_into_a_draw_and_is_mcnemar_without_draws():
    r = sign_test([0.0] * 12 + [1.0] * 8, [0.5] * 12 + [1.0] * 8)
    assert (r["a_only"], r["b_only"]) == (0, 12) and r["difference"] == pytest.approx(0.3)
    assert r["p_value"] == pytest.approx(2 / 2 ** 12) and r["significant"]
    same = sign_test([0.5] * 20, [0.5] * 20)
    assert (same["a_only"], same["b_only"], same["p_value"], same["difference"]) == (0, 0, 1.0, 0.0)


# -- a game that always draws ---------------------------------------------------------------------------------


def test_always_drawn_against_always_drawn_says_no_difference_and_nothing_else(tmp_path, capsys):
    for name in ("a", "b"):
        code, _, err = run(["playtest", "drawcoin", "--games", "40", "--seed", "3", "--jobs", "1", "--quiet",
                            "--out", str(tmp_path / name)], capsys)
        assert code == 0, err
    code, out, err = run(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--json"], capsys)
    assert code == 0, err
    res = json.loads(out)
    assert res["drawn"] == {"count_a": 40, "count_b": 40, "rate_a": 1.0, "rate_b": 1.0}
    for r in res["win_by_seat"]:  # every seat scores half a point every game, in both runs
        assert (r["rate_a"], r["rate_b"], r["difference"], r["p_value"], r["significant"]) == (0.5, 0.5, 0.0, 1.0, False)
        assert r["ci_low"] == r["ci_high"] == 0.0
    lines = comparison_verdict("A", "B", compare_rows(RunDir(tmp_path / "a").read_results(), RunDir(tmp_path / "b").read_results()))
    assert lines[0] == ("All 40 paired games were drawn with both A and B: every seat scored half a point in every "
                        "game, so no seat or side does better or worse with B.")
    text = " ".join(lines)
    for wrong in ("beyond chance over", "cannot be ruled out", "more often", "less often", "wins 0%", "turn cap"):
        assert wrong not in text, lines
    code, out, err = run(["compare", str(tmp_path / "a"), str(tmp_path / "b")], capsys)
    assert code == 0, err
    out = " ".join(out.split())  # the console wraps long lines
    assert "a draw (a finished game nobody won) counts as half a point for every seat" in out
    assert "Drawn: 40 of 40 games with A (100.0%), 40 with B (100.0%)." in out
    assert re.search(r"\| seat 0 win rate \| 50\.0% \| 50\.0% \| \+0\.0 pts", out), out
    assert "**yes**" not in out
    page = (tmp_path / "b" / "comparison.html").read_text()
    assert "All 40 paired games were drawn" in page and "half a point" in page


def test_always_drawn_against_a_game_seat_0_always_wins_is_half_a_point_each_way(tmp_path):
    a, b = rows_of(tmp_path, "a", draw=100), rows_of(tmp_path, "b", draw=0, bias=100)
    res = compare_rows(a, b)
    s0, s1 = res["win_by_seat"]
    assert (s0["rate_a"], s0["rate_b"], s0["difference"]) == (0.5, 1.0, 0.5)  # McNemar on wins would say 0% -> 100%
    assert (s1["rate_a"], s1["rate_b"], s1["difference"]) == (0.5, 0.0, -0.5)  # ... and that seat 1 did not change
    assert s0["significant"] and s1["significant"] and (s0["a_only"], s0["b_only"]) == (0, 60)
    assert s0["ci_low"] == s0["ci_high"] == 0.5
    lines = comparison_verdict("A", "B", res)
    assert lines[0].startswith("100% of games were drawn with A and 0% with B; a draw (a finished game nobody won) "
                               "counts as half a point for every seat")
    assert lines[1].startswith("The winners changed: who scores differs between A and B in 60 of 60 games")
    assert lines[2].startswith("Seat 0 scores 100% with B against 50% with A: 50 points more often [+50, +50] (")
    assert re.search(r"\[\+50, \+50\] \(\d+(\.\d+)?% interval; paired t-test p = ", lines[2]), lines[2]
    assert lines[3].startswith("Seat 1 scores 0% with B against 50% with A: 50 points less often")
    assert not any("No win rate differs" in line for line in lines)


# -- a game that draws often ----------------------------------------------------------------------------------


def test_often_drawn_a_loss_turned_into_a_draw_is_half_a_point(tmp_path):
    """Seat 0 always loses with A; B makes 40% of games draws (the same games, by seed): +20 points for seat 0."""
    a, b = rows_of(tmp_path, "a", games=200, draw=0, bias=0), rows_of(tmp_path, "b", games=200, draw=40, bias=0)
    draws = sum(1 for r in b if not r["winners"])
    assert 60 <= draws <= 100
    res = compare_rows(a, b)
    s0, s1 = res["win_by_seat"]
    assert s0["difference"] == pytest.approx(draws / 2 / 200) and s1["difference"] == pytest.approx(-draws / 2 / 200)
    assert (s0["a_only"], s0["b_only"]) == (0, draws) and s0["significant"] and s1["significant"]
    assert s0["ci_low"] > 0 and s1["ci_high"] < 0  # the interval agrees with the test
    assert res["drawn"]["count_b"] == draws and res["drawn"]["count_a"] == 0


def test_often_drawn_on_both_sides_with_the_same_edge_is_no_difference(tmp_path):
    """Both runs draw in the same ~half of the games and toss a fair coin otherwise: nothing to find."""
    a, b = rows_of(tmp_path, "a", games=120, draw=50, bias=50), rows_of(tmp_path, "b", games=120, draw=50, bias=50)
    res = compare_rows(a, b)
    assert not any(r["significant"] for r in res["win_by_seat"])
    lines = comparison_verdict("A", "B", res)
    assert lines[0].startswith(f"{100 * res['drawn']['count_a'] / 120:.0f}% of games were drawn with A")
    assert "No win rate differs between A and B: every seat and side scored the same" in lines[1]


def test_goofspiel_with_two_cards_draws_often_and_compare_says_how_it_scores(tmp_path, capsys):
    """The worked example with a tie-heavy setup: two cards a suit, random bids; about half the games are drawn."""
    for name, cards in (("two", 2), ("three", 3)):
        code, _, err = run(["playtest", "goofspiel", "--games", "60", "--seed", "5", "--jobs", "1", "--quiet", "--agents", "random",
                            "--option", f"cards={cards}", "--out", str(tmp_path / name)], capsys)
        assert code == 0, err
    a, b = RunDir(tmp_path / "two").read_results(), RunDir(tmp_path / "three").read_results()
    drawn_a = sum(1 for r in a if not r["winners"] and not r["truncated"])
    assert 15 <= drawn_a <= 45  # draws are common
    res = compare_rows(a, b)
    for s, r in enumerate(res["win_by_seat"]):
        assert r["rate_a"] == pytest.approx(sum(1.0 if s in g["winners"] else 0.5 if not g["winners"] else 0.0 for g in a) / 60)
    assert res["win_by_seat"][0]["rate_a"] + res["win_by_seat"][1]["rate_a"] == pytest.approx(1.0)  # shares add up
    assert res["drawn"]["count_a"] == drawn_a
    text = markdown_comparison("two", "three", res)
    assert "counts as half a point for every seat" in text and f"Drawn: {drawn_a} of 60 games with A" in text
    assert comparison_verdict("two", "three", res)[0].startswith(f"{100 * drawn_a / 60:.0f}% of games were drawn with A")


def test_many_variants_with_draws_state_the_rule_and_keep_one_family(tmp_path):
    base = rows_of(tmp_path, "base", draw=100)
    wins = rows_of(tmp_path, "wins", draw=0, bias=100)
    same = rows_of(tmp_path, "same", draw=100, bias=0)
    res = compare_many(("base", base), [("wins", wins), ("same", same)])
    # per variant: the winner distribution, two seats, truncation, turns, decisions and the experience metrics recorded
    assert res["family"] == 2 * (6 + len(res["comparisons"]["wins"]["experience"]))
    assert res["table"][0]["measure"] == "winner distribution"
    top = [t for t in res["table"] if t["measure"].endswith("win rate")][0]
    assert top["variant"] == "wins" and abs(top["difference"]) == 0.5 and top["significant"]
    assert not any(t["significant"] for t in res["table"] if t["variant"] == "same")
    text = markdown_many(res)
    assert "counts as half a point for every seat" in text and "| wins | seat 0 win rate | 50.0% | 100.0% | +50.0 pts" in text
    assert forest_plot(res, tmp_path / "f.svg").read_text().startswith("<svg")


# -- every other win rate: the run summary, the first player, the report, simulate ----------------------------


def test_a_run_that_always_draws_gives_every_seat_its_fair_share_and_the_first_player_no_edge(tmp_path, capsys):
    code, out, err = run(["playtest", "drawcoin", "--games", "30", "--jobs", "1", "--quiet", "--json",
                          "--out", str(tmp_path / "r")], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert [(r["rate"], r["wins"], r["draws"]) for r in doc["win_by_seat"]] == [(0.5, 0, 30), (0.5, 0, 30)]
    assert all(r["rate"] == 0.5 for r in doc["win_by_role"].values())
    fpa = doc["first_player_advantage"]
    assert fpa["first_rate"] == 0.5 and fpa["advantage"] == 0.0  # counting a draw as no win would say -50 points
    assert doc["balance"] == 1.0
    assert doc["verdict"][0] == "All 30 games were drawn: nobody won, so every seat scores an even share."
    from boardlab.playtest.report import markdown_summary

    text = markdown_summary(RunDir(tmp_path / "r").read_manifest(), doc)
    assert "| seat | win rate (a draw: an equal share) | 95% CI |" in text and "| 0 | 50" in text


def test_often_drawn_seat_rates_add_up_to_one(tmp_path):
    from boardlab.playtest.metrics import first_player_advantage, win_rates_by_seat

    rows = rows_of(tmp_path, "r", games=100, draw=40, bias=100)
    draws = sum(1 for r in rows if not r["winners"])
    seats = win_rates_by_seat(rows, 2)
    assert seats[0]["rate"] == pytest.approx((100 - draws + draws / 2) / 100) and seats[1]["rate"] == pytest.approx(draws / 2 / 100)
    assert seats[0]["rate"] + seats[1]["rate"] == pytest.approx(1.0)
    assert first_player_advantage(rows, 2)["advantage"] == pytest.approx(seats[0]["rate"] - 0.5)


def test_simulate_says_how_it_counts_a_draw(capsys):
    code, out, err = run(["simulate", "drawcoin", "--games", "10", "--jobs", "1"], capsys)
    assert code == 0, err
    out = " ".join(out.split())
    assert "drawn 10 (a draw is no win in 'win %'; playtest, compare and arena count it as an equal share)" in out
