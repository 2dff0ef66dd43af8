"""One decision rule per answer (issue 46, section 1): every answer's verdict, p-value and interval come from one
procedure at one corrected level, so they can never disagree. Checked as hypothesis properties over the procedures
themselves, over comparisons (compare, playtest --variant), over studies and over playtest verdicts."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from boardlab import stats
from boardlab.playtest.compare import comparison_verdict, compare_many, compare_rows, markdown_comparison, measures
from boardlab.playtest.study import Question, RunSpec, Study, answer

LEVELS = st.sampled_from([0.05, 0.05 / 2, 0.05 / 3, 0.05 / 7, 0.001])
SIDES = st.sampled_from(stats.ALTERNATIVES)


def excludes(lo, hi, ref, alternative):
    """The interval rules ``ref`` out on the side the test looks at."""
    return {"two-sided": lo > ref or hi < ref, "greater": lo > ref, "less": hi < ref}[alternative]


def away_from_boundary(p, alpha):
    return abs(p - alpha) > 1e-9 * max(1.0, alpha) + 1e-12


# -- the procedures: each test and the interval that inverts it ---------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 400), data=st.data(), alpha=LEVELS, alternative=SIDES)
def test_the_score_test_and_wilsons_interval_agree(n, data, alpha, alternative):
    k = data.draw(st.integers(0, n))
    p0 = data.draw(st.sampled_from([0.2, 0.25, 1 / 3, 0.5, 0.6]))
    p, lo, hi = stats.score_test(k, n, p0, alpha, alternative)
    assume(away_from_boundary(p, alpha))
    assert excludes(lo, hi, p0, alternative) == (p < alpha), (p, lo, hi)


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.integers(-20, 20), min_size=1, max_size=60), ref=st.integers(-5, 5), alpha=LEVELS, alternative=SIDES)
def test_the_t_test_and_its_interval_agree(values, ref, alpha, alternative):
    r = stats.t_test(values, ref, alpha, alternative)
    assume(away_from_boundary(r["p"], alpha))
    assert excludes(r["low"], r["high"], ref, alternative) == (r["p"] < alpha), r
    from scipy.stats import ttest_1samp

    if len(set(values)) > 1:  # the same numbers scipy gives
        res = ttest_1samp(values, ref, alternative=alternative)
        assert r["p"] == pytest.approx(res.pvalue, rel=1e-9, abs=1e-12)
        if alternative == "two-sided":
            ci = res.confidence_interval(1 - alpha)
            assert (r["low"], r["high"]) == pytest.approx((ci.low, ci.high), rel=1e-9, abs=1e-12)


@settings(max_examples=400, deadline=None)
@given(diffs=st.one_of(st.lists(st.sampled_from([-1, 0, 0, 0, 1]), min_size=1, max_size=300),
                       st.lists(st.sampled_from([-1, -0.5, 0, 0, 0.5, 1]), min_size=1, max_size=300)),
       alpha=LEVELS, alternative=SIDES)
def test_a_paired_difference_and_its_interval_agree_at_any_level(diffs, alpha, alternative):
    r = stats.paired_difference(diffs, alpha, alternative)
    assert r["test"] == ("exact sign test" if all(d in (-1, 0, 1) for d in diffs) else "paired t-test")
    assume(away_from_boundary(r["p"], alpha))
    assert excludes(r["low"], r["high"], 0.0, alternative) == (r["p"] < alpha), r
    assert (r["low"], r["high"]) == pytest.approx(stats.paired_interval(r, alpha, alternative))
    if r["test"] == "exact sign test" and alternative == "two-sided" and r["a_only"] + r["b_only"]:
        assert r["p"] == pytest.approx(stats.mcnemar_exact(r["a_only"], r["b_only"]))  # McNemar's exact test


@settings(max_examples=200, deadline=None)
@given(n1=st.integers(1, 200), n2=st.integers(1, 200), data=st.data(), alpha=LEVELS)
def test_two_independent_rates_and_newcombes_interval_agree(n1, n2, data, alpha):
    k1, k2 = data.draw(st.integers(0, n1)), data.draw(st.integers(0, n2))
    p, lo, hi = stats.diff_test(k1, n1, k2, n2, alpha)
    assume(abs(p - alpha) > 1e-6 * alpha)  # the p-value is found by bisection on the level
    assert (lo > 0 or hi < 0) == (p < alpha), (p, lo, hi)


@given(ps=st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_levels_reject_exactly_at_their_level(ps):
    reject, adjusted, levels = stats.holm_levels(ps)
    for p, rej, adj, level in zip(ps, reject, adjusted, levels):
        assert rej == (p <= level) == (adj <= 0.05)
        assert 0.05 / len(ps) <= level <= 0.05


def test_every_level_is_labelled():
    assert stats.level_text(0.05) == "95% interval"
    assert stats.level_text(0.05 / 3) == "98.33% interval"
    assert stats.level_text(0.025, "greater") == "each end a one-sided 97.5% bound"


# -- comparisons: compare, playtest --variant --------------------------------------------------------------------


def _game(seed, winners, players, turns, truncated=False, first=0, roles=None):
    roles = roles or [f"seat {s}" for s in range(players)]
    return {"seed": seed, "index": seed, "game": "toy", "players": players, "roles": roles, "winners": winners,
            "winner_roles": [roles[w] for w in winners], "truncated": truncated, "turns": turns, "decisions": 2 * turns,
            "first_seat": first, "lead_changes": turns % 3, "closeness": 0.5, "metrics": {},
            "downtime_mean": [1.0 + (turns % 4)] * players, "waiting_out": [0] * players,
            "decided_at": None if not winners else (turns % 10) / 10, "kingmaking": None if players < 3 else turns % 2}


@st.composite
def paired_runs(draw):
    players = draw(st.integers(2, 4))
    n = draw(st.integers(2, 80))
    outcome = st.one_of(st.just(None), st.integers(0, players - 1))  # None: a draw (or, below, a truncated game)
    a, b = [], []
    for i in range(n):
        wa, wb = draw(outcome), draw(outcome)
        ta, tb = draw(st.integers(5, 30)), draw(st.integers(5, 30))
        trunc_a = wa is None and draw(st.booleans())
        trunc_b = wb is None and draw(st.booleans())
        a.append(_game(i, [] if wa is None else [wa], players, ta, trunc_a, first=i % players))
        b.append(_game(i, [] if wb is None else [wb], players, tb, trunc_b, first=i % players))
    return a, b


def _check_answers(family):
    for name, r in family:
        assert r["significant"] == (r["p_holm"] <= 0.05), (name, r)
        if "changed_games" in r:
            continue  # the winner distribution: a test with no interval
        assume(away_from_boundary(r["p_value"], r["alpha"]))
        assert r["significant"] == (r["ci_low"] > 0 or r["ci_high"] < 0), (name, r)


@settings(max_examples=40, deadline=None)
@given(runs=paired_runs())
def test_a_comparisons_verdict_p_value_and_interval_never_disagree(runs):
    a, b = runs
    res = compare_rows(a, b)
    family = measures(res)
    assert res["family"] == len(family) and family[0][0] == "winner distribution"
    _check_answers(family)
    lines = comparison_verdict("A", "B", res)
    for s, r in enumerate(res["win_by_seat"]):
        said = any(line.startswith(f"Seat {s} ") and "points" in line and "often" in line for line in lines)
        assert said == r["significant"], (s, r, lines)
    for line in lines:  # every interval printed in words says its level
        for m in re.finditer(r"\[[+-]?\d+(?:\.\d+)?, [+-]?\d+(?:\.\d+)?\]", line):
            assert re.match(r",? ?\(?[^)]*?(\d+(?:\.\d+)?% interval)", line[m.end():]), line
    table = markdown_comparison("A", "B", res)
    assert table.count("% interval)") == len(family) - 1  # every row with an interval, labelled


@settings(max_examples=15, deadline=None)
@given(base=paired_runs(), data=st.data())
def test_many_variants_keep_one_family_and_every_answer_agrees(base, data):
    a, b = base
    c = [dict(r, winners=[0], winner_roles=[r["roles"][0]], truncated=False) if data.draw(st.booleans()) else dict(r) for r in b]
    res = compare_many(("base", a), [("b", b), ("c", c)])
    assert res["family"] == sum(len(measures(r)) for r in res["comparisons"].values())
    _check_answers([(t["measure"], t) for t in res["table"]])


# -- studies ---------------------------------------------------------------------------------------------------------

SPEC = RunSpec("final", (), None, ("heuristic",))
OTHER = RunSpec("prototype", (), None, ("heuristic",))


@st.composite
def studies(draw):
    players = draw(st.integers(2, 4))
    n = draw(st.integers(4, 120))
    roles = ["green", "red"] if players == 2 else None

    def run():
        rows = []
        for i in range(n):
            w = draw(st.one_of(st.just(None), st.integers(0, players - 1)))
            rows.append(_game(i, [] if w is None else [w], players, draw(st.integers(5, 30)), first=draw(st.integers(0, players - 1)),
                              roles=roles))
        return rows

    base_rows, rows = run(), run()
    whos = ["seat 0", f"seat {players - 1}", "first player"] + (["green"] if roles else [])
    qs = []
    for i in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["share", "mean", "paired-win", "paired-mean", "balance", "winners"]))
        expect = draw(st.sampled_from(["above", "below", "differs", "none"]))
        who = draw(st.sampled_from(whos))
        if kind == "share":
            q = Question(f"q{i}", "", "win-rate", expect, draw(st.sampled_from([0.02, 0.05, 0.1])), SPEC, who=who)
        elif kind == "mean":
            q = Question(f"q{i}", "", "turns", expect, draw(st.sampled_from([0.5, 2.0, 5.0])), SPEC, against=draw(st.integers(10, 25)))
        elif kind == "paired-win":
            q = Question(f"q{i}", "", "win-rate", expect, draw(st.sampled_from([0.02, 0.05, 0.1])), OTHER, base=SPEC, who=who)
        elif kind == "paired-mean":
            q = Question(f"q{i}", "", draw(st.sampled_from(["turns", "lead-changes", "downtime"])), expect, 1.0, OTHER, base=SPEC)
        elif kind == "winners":
            q = Question(f"q{i}", "", "winners", draw(st.sampled_from(["differs", "none"])), 0.05, OTHER, base=SPEC)
        else:
            q = Question(f"q{i}", "", "balance", "none", draw(st.sampled_from([0.05, 0.1])), SPEC)
        qs.append(q)
    return Study("toy", "a study", 1, 1000, 10, qs), {SPEC: base_rows, OTHER: rows}


@settings(max_examples=80, deadline=None)
@given(case=studies())
def test_a_studys_verdict_p_value_and_interval_never_disagree(case):
    study, data = case
    for a in answer(study, data):
        rejected, v, alt = a["rejected"], a["verdict"], a["alternative"]
        assert rejected == (a["p_holm"] <= 0.05), a
        assert alt == {"above": "greater", "below": "less"}.get(a["expect"], "two-sided")
        if a["kind"] == "omnibus":  # did the winners change: a test with no interval, so its verdict is the test's
            assert v == ({"differs": "holds", "none": "does not hold"}[a["expect"]] if rejected else "undecided"), a
            assert a["lo"] is None and "no interval" in a["words"]
            continue
        if a["kind"] != "balance":
            assume(away_from_boundary(a["p_value"], a["alpha"]))
            assert rejected == excludes(a["lo"], a["hi"], 0.0, alt), a  # the effect's interval at its Holm level
        if a["expect"] in ("above", "below", "differs"):
            assert not (v == "holds" and not rejected), a
        if a["expect"] == "none":
            assert not (v == "does not hold" and not rejected), a
        assert not (v == "undecided" and rejected), a
        if "beyond chance" in a["words"] and "no effect" not in a["words"]:
            assert rejected, a["words"]
        assert ("one-sided" in a["words"]) == (alt != "two-sided"), a["words"]
        assert re.search(r"\] \((\d+(\.\d+)?% interval|each end a one-sided \d+(\.\d+)?% bound)\)", a["words"]), a["words"]


def test_first_player_against_a_base_is_answered():
    """issue 46: who = "first player" with a base was refused without the docs saying so; now it is answered (the
    first player's points in each paired game)."""
    from boardlab.playtest.study import parse

    study = parse({"game": "blackfire", "question": [{"id": "f", "metric": "win-rate", "who": "first player", "variant": "prototype",
                                                      "base": "final", "expect": "differs", "smallest_effect": 0.1}]})
    q = study.questions[0]
    base = [_game(i, [i % 2], 2, 10, first=i % 2, roles=["green", "red"]) for i in range(40)]  # the first player always wins
    other = [_game(i, [1 - i % 2], 2, 10, first=i % 2, roles=["green", "red"]) for i in range(40)]  # ... always loses
    (a,) = answer(study, {q.base: base, q.run: other})
    assert a["estimate"] == -1.0 and a["test"] == "exact sign test" and a["rejected"] and a["verdict"] == "holds"


# -- tune: the confirmation's paired bootstrap, re-taken at its Holm level ---------------------------------------------


@pytest.mark.parametrize("bias_b,level", [(57, 0.05), (40, 0.05 / 3), (40, 0.001), (50, 0.025)])
def test_a_tuned_settings_interval_is_taken_at_its_holm_level_and_agrees_with_its_test(bias_b, level):
    from boardlab.playtest.tune import Target, _relevel, paired_loss_test
    from tests.playtest.test_tune_honest import coin_rows

    t = paired_loss_test(Target.parse("balance"), coin_rows(60, 200, 9), coin_rows(bias_b, 200, 9), 2, seed=5)
    _relevel(t, level)
    assert t["alpha"] == level and "_again" not in t
    if away_from_boundary(t["p_value"], level) and abs(t["p_value"] - level) > 1e-4:  # p is found by bisection
        assert (t["ci_low"] > 0 or t["ci_high"] < 0) == (t["p_value"] < level), t
