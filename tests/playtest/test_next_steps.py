"""What a designer asks next (issue 46, sections 1 and 2): an item never used says so, drawn content that goes with
winning comes with the experiment that tests it, and a comparison carries the experience metrics and the omnibus
winner test with its words."""

from __future__ import annotations

import re

from boardlab.playtest.compare import compare_rows, comparison_verdict, markdown_comparison, winner_test
from boardlab.playtest.metrics import summary
from boardlab.playtest.report import write_report
from boardlab.playtest.verdict import classify_keys, verdict
from tests.playtest.test_verdict_report import rows_with


def test_an_item_never_used_says_never_used(tmp_path):
    rows = rows_with([60, 40], players=2, metrics=lambda w: {"item:gloves": [0, 0], "card:x": [1, 0]})
    cfg = {"game": "toy", "variant": "final", "players": 2, "seed": 0, "agents": ["random", "random"]}
    res = summary(rows, 2)
    res["usage_kinds"] = {"item:gloves": "content", "card:x": "choice"}
    page = write_report(tmp_path, {"config": cfg, "boardlab_version": "0"}, res, rows).read_text()
    row = page.split("<code>item:gloves</code>")[1].split("</tr>")[0]
    assert "never used" in row and "0.0% (0.0%-100.0%)" not in page
    assert "content (drawn, not chosen)" in row


def test_drawn_content_that_goes_with_winning_offers_the_game_without_it():
    kinds = classify_keys(["item:gloves", "card:x", "dragon:won"], ["card:x"], ["item", "room"])
    assert kinds == {"item:gloves": "content", "card:x": "choice", "dragon:won": "event"}
    rows = rows_with([60, 40], players=2, metrics=lambda w: {"item:gloves": [int(w == 0), int(w == 1)]})
    lines = verdict(summary(rows, 2), rows, 2, {"item:gloves": "content"}, variant="rulebook")
    line = [x for x in lines if x.startswith("Players who get item:gloves")]
    assert line and "--variant rulebook+without:item:gloves" in line[0] and "compare" in line[0], lines
    assert re.search(r"\[\+?\d+, \+?\d+\] \(\d+(\.\d+)?% interval\)", line[0]), line[0]
    assert not any("--restrict" in x for x in lines)  # drawn content is not a choice to restrict


def _game(seed, winner, turns, downtime, king=0, players=3):
    return {"seed": seed, "game": "toy", "players": players, "roles": [f"seat {s}" for s in range(players)],
            "winners": [winner], "winner_roles": [f"seat {winner}"], "truncated": False, "turns": turns, "decisions": 2 * turns,
            "first_seat": 0, "lead_changes": 1, "closeness": 0.5, "metrics": {}, "downtime_mean": [downtime] * players,
            "waiting_out": [0] * players, "decided_at": 0.5, "kingmaking": king}


def test_a_comparison_carries_the_experience_metrics_with_paired_intervals_in_the_family():
    # B: the same winners, but every seat waits two decisions longer between its turns
    a = [_game(i, i % 3, 10, 2.0 + (i % 5) / 10) for i in range(60)]
    b = [_game(i, i % 3, 10, 4.0 + (i % 7) / 10) for i in range(60)]
    res = compare_rows(a, b)
    exp = res["experience"]
    assert set(exp) == {"downtime", "waiting while out", "decided at", "kingmaking", "lead changes"}
    d = exp["downtime"]
    assert d["significant"] and d["ci_low"] > 1.5 and d["test"] == "paired t-test"
    assert not exp["lead changes"]["significant"] and exp["kingmaking"]["test"] == "exact sign test"
    assert res["family"] == 1 + 3 + 3 + 5  # the winner test, three seats, truncation, turns, decisions, five experience metrics
    lines = comparison_verdict("A", "B", res)
    assert any(x.startswith("Mean downtime is ") and "% interval" in x for x in lines), lines
    table = markdown_comparison("A", "B", res)
    assert re.search(r"\| mean downtime \| [\d.]+ \| [\d.]+ \| \+[\d.]+ \[\+[\d.]+, \+[\d.]+\] \(\d+(\.\d+)?% interval\)", table), table
    assert "| winner distribution |" in table and "a test, no interval" in table


def test_the_winner_test_sees_a_change_the_seats_alone_may_not():
    # four seats; B moves one win in twelve from seat 0 to seat 1 and one from seat 2 to seat 3: each seat's change is
    # small, the omnibus test across seats pools them
    same = winner_test([[1, 0, 0, 0]] * 10, [[1, 0, 0, 0]] * 10)
    assert same["p_value"] == 1.0 and same["changed_games"] == 0
    a = [[1, 0, 0, 0]] * 30 + [[0, 0, 1, 0]] * 30 + [[0, 1, 0, 0]] * 40
    b = [[0, 1, 0, 0]] * 30 + [[0, 0, 0, 1]] * 30 + [[0, 1, 0, 0]] * 40
    r = winner_test(a, b)
    assert r["changed_games"] == 60 and not r["exact"] and r["p_value"] < 0.001
    # exact when at most 16 games differ: 5 games, all one way, of 2^5 swaps only the two all-alike are as extreme
    five = winner_test([[1, 0]] * 5, [[0, 1]] * 5)
    assert five["exact"] and five["p_value"] == 2 / 32
    assert winner_test(a, b) == r  # seeded: the same answer every time
