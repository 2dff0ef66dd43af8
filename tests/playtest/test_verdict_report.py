"""The report a designer reads in a minute: a verdict in words backed by intervals (issue 19)."""

import json

from boardlab.playtest.metrics import summary
from boardlab.playtest.report import heading, markdown_summary, write_report
from boardlab.playtest.verdict import classify_keys, verdict


def rows_with(wins_by_seat, players=4, metrics=None, first=0):
    rows = []
    for seat, count in enumerate(wins_by_seat):
        for _ in range(count):
            rows.append({"winners": [seat], "roles": [f"seat {i}" for i in range(players)], "winner_roles": [f"seat {seat}"],
                         "turns": 10 + seat, "decisions": 20, "truncated": False, "choice_points": 5, "mean_branching": 2.0,
                         "lead_changes": 1, "closeness": 0.5, "metrics": metrics(seat) if metrics else {}, "seed": len(rows),
                         "players": players, "first_seat": first})
    return rows


def test_a_favoured_seat_is_named_with_its_interval_and_the_fair_share():
    rows = rows_with([200, 200, 400, 200])  # seat 2 wins 40% of 1000 against a fair 25%
    lines = verdict(summary(rows, 4), rows, 4)
    # every interval says its level: the Holm step that decided the claim (two claims made first: 0.05/4, 0.05/3)
    assert any(line.startswith("Seat 2 wins 40% [36, 44] (98.75% interval) against a fair 25%: seat 2 is favoured") for line in lines), lines
    assert any(line.startswith("Seat 0, who always acts first, wins 20% [17, 23] (98.33% interval) against a fair 25%: "
                               "seat 0 is disadvantaged") for line in lines), lines


def test_noise_is_not_called_a_finding():
    rows = rows_with([14, 11, 13, 12])
    lines = verdict(summary(rows, 4), rows, 4)
    assert lines[0].startswith("No seat wins more or less than a fair 25% beyond chance (seat 0 always acts first): these 50 games"
                               " cannot see an edge smaller than 20.4 points either way"), lines
    assert "5,228 games would see 2 points" in lines[0]
    assert not any("first player" in line for line in lines)  # seat 0 always acted first: one claim, not two


def test_first_player_advantage_is_claimed_only_when_the_interval_excludes_fair():
    rows = rows_with([500, 500], players=2)
    for i, r in enumerate(rows):  # seats alternate as first player; whoever acted first won 600 of 1000
        r["first_seat"] = r["winners"][0] if i % 500 < 300 else 1 - r["winners"][0]
    lines = verdict(summary(rows, 2), rows, 2)
    assert ("The first player (the seat that acted first) wins 60% [56, 64] (98.33% interval) against a fair 50%: the first player is favoured "
            "(p = 7.6e-10 after Holm's correction across the 3 claims of this verdict).") in lines, lines


def test_events_are_marked_as_consequences_and_choices_named():
    rows = rows_with([300, 300], players=2, metrics=lambda w: {"dragon:won": [1 if w == 0 else 0, 1 if w == 1 else 0], "card:x": [0, 0]})
    res = summary(rows, 2)
    kinds = classify_keys([u["key"] for u in res["usage"]], ["card:x"])
    assert kinds == {"card:x": "choice", "dragon:won": "event"}
    lines = verdict(res, rows, 2, kinds)
    assert any("dragon:won" in line and "consequences of play, not choices" in line for line in lines)
    assert not any(line.startswith("Players who use dragon:won") for line in lines)


def test_report_renders_the_summary_and_names_the_rule_values(tmp_path):
    rows = rows_with([60, 40], players=2, metrics=lambda w: {"card:x": [1, 0], "dragon:won": [int(w == 0), int(w == 1)]})
    cfg = {"game": "toy", "variant": "final", "players": 2, "seed": 0, "agents": ["random", "random"], "options": {"hero_hp": 17}}
    manifest = {"config": cfg, "boardlab_version": "0"}
    res = summary(rows, 2)
    res["usage_kinds"] = {"card:x": "choice", "dragon:won": "event"}
    res["verdict"] = verdict(res, rows, 2, res["usage_kinds"])
    assert heading(cfg) == "toy (final, 2 players; hero_hp=17)"
    page = write_report(tmp_path, manifest, res, rows).read_text()
    assert "<h2>Verdict</h2>" in page and "<table>" in page.split('id="summary"')[1]
    assert "| seat |" not in page  # the Markdown is rendered, not shown raw
    assert "event (consequence of play)" in page and "hero_hp=17" in page
    assert "## Verdict" in markdown_summary(manifest, res)
    u = {x["key"]: x for x in json.loads((tmp_path / "summary.json").read_text())["usage"]}
    assert u["dragon:won"]["delta_ci"][0] > 0.9 and u["dragon:won"]["significant"]
