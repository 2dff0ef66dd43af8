"""One family per verdict (issue 33): the side or seat claims and the first-player claim are corrected together,
a claim is made exactly when its printed interval excludes the fair share, a role that always acts first is one
claim, "no effect" states the smallest edge the run could see, and draws are shares, not losses."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.playtest.metrics import summary
from boardlab.playtest.verdict import family, verdict


def game(winner, players, first, roles=None, truncated=False):
    roles = roles or [f"seat {i}" for i in range(players)]
    winners = [] if winner is None else [winner]
    return {"winners": winners, "roles": roles, "winner_roles": [roles[w] for w in winners], "turns": 10, "decisions": 20,
            "truncated": truncated, "choice_points": 5, "mean_branching": 2.0, "lead_changes": 1, "closeness": 0.5,
            "metrics": {}, "seed": 0, "players": players, "first_seat": first}


def contradictions(lines):
    """Pairs of lines that call the same subject both even and uneven."""
    uneven = {m.group(1).lower() for line in lines for m in [re.search(r": (.+?) is (?:favoured|disadvantaged)", line)] if m}
    problems = []
    for line in lines:
        if "beyond chance" in line:
            for subject in uneven:
                if subject.startswith("seat") and line.startswith("No seat"):
                    problems.append((subject, line))
                if subject.startswith("the ") and subject.endswith(" side") and line.startswith("No side"):
                    problems.append((subject, line))
        if "cannot see a first-player edge" in line and "the first player" in uneven:
            problems.append(("the first player", line))
    return problems


def test_the_wizard_who_always_acts_first_is_one_claim():
    # The Labyrinth's shape: the wizard (seat 0) always acts first and wins 55% of 1000 3-player games.
    roles = ["wizard", "hero", "hero"]
    rows = [game(0 if i < 550 else 1, 3, 0, roles) for i in range(1000)]
    res = summary(rows, 3)
    res["roles_add_information"] = True
    lines = verdict(res, rows, 3)
    side = [line for line in lines if line.startswith("The wizard side, who always acts first, wins 55%")]
    assert side and "the wizard side is favoured" in side[0], lines
    assert not any("first player" in line.lower() for line in lines), lines
    assert not contradictions(lines)


def test_blackfire_shape_no_side_and_no_first_player_line_disagreeing():
    # Green always moves first and wins 758 of 1,600 (p = 0.035 uncorrected two-sided): one claim, one verdict.
    roles = ["green", "red"]
    rows = [game(0 if i < 758 else 1, 2, 0, roles) for i in range(1600)]
    res = summary(rows, 2)
    res["roles_add_information"] = True
    lines = verdict(res, rows, 2)
    assert not contradictions(lines), lines
    assert sum("acts first" in line for line in lines) == 1, lines


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 5), n=st.integers(1, 400), data=st.data())
def test_a_claim_is_made_exactly_when_its_interval_excludes_the_fair_share(players, n, data):
    winners = data.draw(st.lists(st.one_of(st.none(), st.integers(0, players - 1)), min_size=n, max_size=n))
    firsts = data.draw(st.lists(st.integers(0, players - 1), min_size=n, max_size=n))
    rows = [game(w, players, f, truncated=(w is None and i % 3 == 0)) for i, (w, f) in enumerate(zip(winners, firsts))]
    claims = family(rows, players)
    for c in claims:
        excludes = c["lo"] > c["fair"] or c["hi"] < c["fair"]
        if c["claimed"]:
            assert excludes, c
        else:
            assert c["lo"] - 1e-9 <= c["fair"] <= c["hi"] + 1e-9, c
        assert c["lo"] - 1e-9 <= c["rate"] <= c["hi"] + 1e-9
    lines = verdict(summary(rows, players), rows, players)
    assert not contradictions(lines), lines


def test_no_effect_states_what_the_run_could_see():
    rows = [game(i % 2, 2, (i // 2) % 2) for i in range(300)]
    lines = verdict(summary(rows, 2), rows, 2)
    first = [line for line in lines if line.startswith("The first player")]
    # issue 46: "no edge larger than X can be seen" read as "there is no edge"; the run states what it cannot see
    assert first and "cannot see a first-player edge smaller than" in first[0] and "either way" in first[0], lines
    assert "games would see 2 points" in first[0] and re.search(r"\[\d+, \d+\] \(\d+(\.\d+)?% interval\)", first[0]), lines
    quiet = [line for line in lines if line.startswith("No seat")]
    assert quiet and "cannot see an edge smaller than" in quiet[0] and "either way" in quiet[0]


@pytest.mark.parametrize("draw_every", [1, 3])
def test_draws_are_shares_not_losses(draw_every):
    rows = [game(None if i % draw_every == 0 else i % 2, 2, i % 2) for i in range(600)]
    lines = verdict(summary(rows, 2), rows, 2)
    if draw_every == 1:
        assert lines[0] == "All 600 games were drawn: nobody won, so every seat scores an even share."
        assert not any("disadvantaged" in line or "favoured" in line for line in lines), lines
    else:
        assert lines[0].startswith("33% [") and "drawn" in lines[0]
        assert not any("disadvantaged" in line for line in lines), lines


def test_compare_puts_length_in_the_same_family_and_its_interval_agrees():
    """compare: a length difference whose test does not survive Holm across every measure is not claimed, and the
    printed interval is taken at the Holm step's level, so 'longer [+0.1, +15.7]' with p = 0.27 cannot happen."""
    from boardlab.playtest.compare import compare_rows, comparison_verdict

    a = [game(i % 2, 2, 0, ["green", "red"]) | {"seed": i} for i in range(200)]
    b = [dict(r) for r in a]
    for i, r in enumerate(b):  # B games are a little longer, noisily
        r["turns"] = r["turns"] + (6 if i % 7 == 0 else -1 if i % 5 == 0 else 0)
    res = compare_rows(a, b)
    # the winner distribution, two seats, two sides, truncation, turns, decisions and the experience metrics recorded
    assert res["family"] == 1 + 2 + 2 + 1 + 2 + len(res["experience"])
    r = res["turns"]
    excludes = r["ci_low"] > 0 or r["ci_high"] < 0
    assert excludes == r["significant"], r
    lines = comparison_verdict("A", "B", res)
    claimed = any(line.startswith("Games are") for line in lines)
    assert claimed == r["significant"]


def _configs():
    from boardlab.engine import registry

    for cls in registry.list_games():
        if cls.id in ("toy", "coin"):
            continue
        for variant in cls.variants:
            for players in range(cls.min_players, cls.max_players + 1):
                yield cls.id, variant.name, players


@pytest.mark.parametrize("game_id,variant,players", list(_configs()))
def test_the_default_report_of_every_configuration_never_contradicts_itself(game_id, variant, players):
    """Every game, variant and player count: a small seeded run's default verdict (random agents, the turn cap
    lowered to keep it cheap), checked for lines that call the same seat or side both even and uneven, and for
    claims whose interval says otherwise."""
    from boardlab.engine.registry import make
    from boardlab.playtest.run import annotate, plan_run
    from boardlab.playtest.simulate import play_row

    config = plan_run(game_id, games=8, players=players, variant=variant, agents=["random"], seed=11,
                      options={"max_turns": 40})
    game = make(game_id, players=players, variant=variant, options={"max_turns": 40})
    game.record_events = False
    rows = [play_row(config, i, game) for i in range(8)]
    result = annotate(summary(rows, players), rows, config)
    lines = result["verdict"]
    assert lines and not contradictions(lines), lines
    for line in lines:
        m = re.search(r"wins (\d+)% \[(\d+), (\d+)\] \([\d.]+% interval\) against (?:a fair|an even share of) (\d+)%: (.+?) is "
                      r"(favoured|disadvantaged)", line)
        if m:
            rate, lo, hi, fair = (int(m.group(i)) for i in range(1, 5))
            assert lo <= rate <= hi, line
            assert (lo >= fair if m.group(6) == "favoured" else hi <= fair), line


def test_many_variants_against_a_base_are_one_family_sorted_by_effect(tmp_path):
    """issue 34: several variants against one base on the same seeds; Holm across every measure of every comparison."""
    from boardlab.playtest.compare import compare_many, compare_rows, forest_plot, markdown_many

    roles = ["green", "red"]
    base = [game(i % 2, 2, 0, roles) | {"seed": i} for i in range(300)]
    strong = [dict(r, winners=[0], winner_roles=["green"]) if i % 3 == 0 else dict(r) for i, r in enumerate(base)]
    same = [dict(r) for r in base]
    res = compare_many(("final", base), [("strong", strong), ("same", same)])
    assert res["family"] == 2 * (8 + len(res["comparisons"]["strong"]["experience"]))
    assert res["table"][0]["measure"] == "winner distribution"
    top = [t for t in res["table"] if t["measure"].endswith("win rate")][0]
    assert top["variant"] == "strong" and top["measure"] in ("seat 0 win rate", "green win rate") and top["significant"]
    assert not any(t["significant"] for t in res["table"] if t["variant"] == "same")
    effects = [abs(t["difference"]) for t in res["table"] if t["measure"].endswith("win rate")]
    assert effects == sorted(effects, reverse=True)
    alone = compare_rows(base, strong)["win_by_seat"][0]
    assert top["p_holm"] >= alone["p_holm"]  # a larger family never makes a claim easier
    for t in res["table"]:
        if t["measure"] != "winner distribution":  # a test with no interval
            assert t["significant"] == (t["ci_low"] > 0 or t["ci_high"] < 0), t
    assert "| strong |" in markdown_many(res)
    assert forest_plot(res, tmp_path / "f.svg").read_text().startswith("<svg")
