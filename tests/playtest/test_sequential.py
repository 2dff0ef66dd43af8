"""Sequential stopping (``--until-ci``) uses an anytime-valid interval, and says how many games it saved (issue 19)."""

import numpy as np

from boardlab.playtest import execute, plan_run
from boardlab.playtest.sequential import status
from boardlab.playtest.store import RunDir
from boardlab.stats import confidence_sequence, wilson


def crossing_rate(interval, p=0.3, streams=300, steps=300, every=5, seed=0):
    """Share of Bernoulli(p) streams whose interval excludes p at SOME look (the error of peeking)."""
    rng = np.random.default_rng(seed)
    bad = 0
    for _ in range(streams):
        xs = np.cumsum(rng.random(steps) < p)
        for n in range(every, steps + 1, every):
            lo, hi = interval(int(xs[n - 1]), n)
            if not lo <= p <= hi:
                bad += 1
                break
    return bad / streams


def test_confidence_sequence_keeps_its_level_under_peeking_where_wilson_does_not():
    assert crossing_rate(confidence_sequence) <= 0.05
    assert crossing_rate(wilson) > 0.1  # stopping on a fixed-sample interval after every look is not valid


def test_confidence_sequence_contains_the_estimate_and_shrinks():
    lo, hi = confidence_sequence(30, 100)
    assert lo < 0.3 < hi
    assert confidence_sequence(300, 1000)[1] - confidence_sequence(300, 1000)[0] < hi - lo


def test_until_ci_stops_at_the_first_look_that_is_narrow_enough_and_reports_games_saved(tmp_path):
    cfg = plan_run("coin", games=3000, agents=["random"], seed=5)
    res = execute(cfg, tmp_path / "r", jobs=1, until_ci=0.2, look_every=50)
    seq = res["sequential"]
    n = seq["games_played"]
    assert seq["stopped"] and res["complete"] and n < 3000 and n % 50 == 0 and seq["games_saved"] == 3000 - n
    rows = RunDir(tmp_path / "r").read_results()
    assert len(rows) == n and [r["index"] for r in rows] == list(range(n))
    assert status(rows, 2, 0.2)["done"] and not status(rows[: n - 50], 2, 0.2)["done"]
    assert res["verdict"][0].startswith(f"Stopped after {n} of at most 3000 games ({3000 - n} saved)")
    assert RunDir(tmp_path / "r").read_manifest()["sequential"]["stopped"]
    again = execute(cfg, tmp_path / "r", jobs=1, until_ci=0.2, look_every=50)  # resuming a stopped run plays nothing
    assert again["sequential"]["games_played"] == n
