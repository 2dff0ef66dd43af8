"""Playtest metrics against hand-computed cases."""

import math

import pytest

from boardlab.playtest import metrics as m
from boardlab.playtest.compare import binom_two_sided, compare_rows, mcnemar, paired_bootstrap


def row(winners, roles=("seat 0", "seat 1"), turns=10, truncated=False, metrics=None, seed=0):
    return {
        "winners": list(winners), "roles": list(roles), "turns": turns, "decisions": turns * 2,
        "truncated": truncated, "choice_points": turns, "mean_branching": 2.0, "lead_changes": 1,
        "closeness": 0.5, "metrics": metrics or {}, "seed": seed, "players": len(roles),
        "winner_roles": sorted({roles[w] for w in winners}),
    }


def test_wilson_matches_the_closed_form():
    # p = 0.2, n = 25: hand-computed with the Wilson formula
    z = m.Z95
    p, n = 0.2, 25
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = m.wilson(5, 25)
    assert lo == pytest.approx(centre - half)
    assert hi == pytest.approx(centre + half)
    assert lo == pytest.approx(0.0886, abs=1e-4) and hi == pytest.approx(0.3913, abs=1e-4)


def test_wilson_edges():
    assert m.wilson(0, 10)[0] == 0.0
    assert m.wilson(10, 10)[1] == pytest.approx(1.0)
    assert m.wilson(0, 0) == (0.0, 1.0)


def test_win_rates_balance_and_first_player_advantage():
    rows = [row([0]), row([0]), row([0]), row([1])]
    seats = m.win_rates_by_seat(rows, 2)
    assert [s["rate"] for s in seats] == [0.75, 0.25]
    assert m.balance(rows, 2) == pytest.approx(0.5)
    fpa = m.first_player_advantage(rows, 2)
    assert fpa["advantage"] == pytest.approx(0.25)


def test_roles_count_team_wins_once_per_game():
    roles = ("wizard", "hero", "hero")
    rows = [row([1, 2], roles), row([0], roles), row([1, 2], roles), row([1, 2], roles)]
    by_role = m.win_rates_by_role(rows)
    assert by_role["hero"]["rate"] == 0.75
    assert by_role["wizard"]["rate"] == 0.25


def test_completion_counts_truncation_apart_from_no_winner():
    rows = [row([0]), row([], truncated=True), row([])]
    c = m.completion(rows)
    assert (c["finished"], c["truncated"], c["no_winner"]) == (2, 1, 1)
    assert c["truncated_rate"] == pytest.approx(1 / 3)


def test_distribution_and_quantiles():
    d = m.distribution([4, 1, 3, 2, 10])
    assert d["mean"] == 4.0 and d["median"] == 3.0 and d["min"] == 1 and d["max"] == 10
    assert d["q1"] == 2.0 and d["q3"] == 4.0
    assert d["sd"] == pytest.approx(math.sqrt(((0) + 9 + 1 + 4 + 36) / 4))


def test_lead_changes_and_leader():
    assert m.leader_of([0.2, 0.7, 0.1]) == 1
    assert m.leader_of([0.5, 0.5]) is None
    assert m.lead_changes([0, 1, None, 1, 0, 0, 1]) == 3


def test_feature_usage_win_rate_used_versus_not():
    rows = [
        row([0], metrics={"card:x": [2, 0]}),
        row([1], metrics={"card:x": [1, 0]}),
        row([0], metrics={"card:x": [0, 0]}),
    ]
    u = {x["key"]: x for x in m.feature_usage(rows)}["card:x"]
    assert u["occurrences"] == 3 and u["games_with"] == 2 and u["seat_games_used"] == 2
    # used by seat 0 in games 1 and 2: won once -> 0.5; not used: 4 seat-games, won 2 -> 0.5
    assert u["win_used"] == 0.5 and u["win_unused"] == 0.5 and u["delta"] == 0.0


def test_exact_binomial_and_mcnemar():
    assert binom_two_sided(0, 5) == pytest.approx(2 / 32)
    assert binom_two_sided(1, 4) == pytest.approx(2 * 5 / 16)
    r = mcnemar([True, True, False, False], [True, False, True, True])
    assert (r["a_only"], r["b_only"]) == (1, 2)
    assert r["difference"] == pytest.approx(0.25)
    assert not r["significant"]


def test_paired_bootstrap_detects_a_constant_shift_and_not_noise():
    a = list(range(50))
    shifted = paired_bootstrap(a, [x + 3 for x in a])
    assert shifted["difference"] == 3 and shifted["significant"]
    same = paired_bootstrap(a, list(a))
    assert same["difference"] == 0 and not same["significant"]


def test_compare_rows_pairs_by_seed():
    a = [row([0], seed=s) for s in range(20)]
    b = [row([1], seed=s) for s in range(20)]
    res = compare_rows(a, b)
    assert res["paired_games"] == 20
    assert res["win_by_seat"][0]["difference"] == -1.0 and res["win_by_seat"][0]["significant"]


def test_compare_holm_corrects_across_seats():
    # 4 seats; seat 0 gains in 6 of 6 discordant pairs: raw p = 2/64 = 0.03125.
    # Holm runs across every answer of the comparison as one family (the winner distribution, 4 seats, truncation,
    # turns, decisions and the lead changes these rows record: 9 tests) and multiplies the smallest p by 9: not significant.
    roles = ("seat 0", "seat 1", "seat 2", "seat 3")
    a = [row([1], roles=roles, seed=s) for s in range(6)] + [row([2], roles=roles, seed=s) for s in range(6, 40)]
    b = [row([0], roles=roles, seed=s) for s in range(6)] + [row([2], roles=roles, seed=s) for s in range(6, 40)]
    res = compare_rows(a, b)
    s0 = res["win_by_seat"][0]
    assert s0["p_value"] == pytest.approx(2 / 64)
    assert res["family"] == 9
    assert s0["test"] == "exact sign test" and s0["p_holm"] == pytest.approx(9 * 2 / 64)
    assert not s0["significant"] and s0["ci_low"] <= 0 <= s0["ci_high"]  # the interval at its Holm level agrees


def test_compare_refuses_different_games_and_player_counts():
    from boardlab.engine.errors import BoardlabError

    a = [dict(row([0], seed=s), game="armies") for s in range(5)]
    b = [dict(row([0], seed=s), game="blackfire") for s in range(5)]
    with pytest.raises(BoardlabError, match="different games"):
        compare_rows(a, b)
    c = [dict(row([0], roles=("seat 0", "seat 1", "seat 2"), seed=s), game="armies") for s in range(5)]
    with pytest.raises(BoardlabError, match="different player counts"):
        compare_rows(a, c)


def test_feature_usage_has_intervals_holm_and_compares_within_the_roles_that_use_a_key():
    roles = ("wizard", "hero", "hero")
    rows = [row([1, 2], roles, metrics={"card:goblin": [1, 0, 0], "loot:x": [0, 1, 0]}) for _ in range(10)]
    rows += [row([0], roles, metrics={"card:goblin": [0, 0, 0], "loot:x": [0, 0, 1]}) for _ in range(10)]
    u = {x["key"]: x for x in m.feature_usage(rows)}
    g = u["card:goblin"]
    # only the wizard plays goblins: compared within wizard games (10 used, lost all; 10 not used, won all)
    assert g["within_roles"] == ["wizard"] and g["win_used"] == 0.0 and g["win_unused"] == 1.0
    assert g["delta_ci"][1] < 0 and g["significant"] and g["p_holm"] >= g["p_value"]
    assert u["loot:x"]["within_roles"] == ["hero"]
