"""``tune`` that cannot fool (issue 33): the incumbent races every rung, only confirmed settings are saved,
BCa intervals that hold their estimate, and a progress count of every game played."""

import json

import numpy as np
import pytest
from scipy import stats

from boardlab.playtest.simulate import RunConfig, play_rows
from boardlab.playtest.tune import (RESAMPLES, Target, UnconfirmedSettingError, confirm, loss_interval, paired_loss_test,
                                    save_variant, tune, write_tune_folder)


def variant_file(tmp_path, bias):
    path = tmp_path / f"coin{bias}.json"
    path.write_text(json.dumps({"name": f"coin{bias}", "game": "coin", "base": "default", "overrides": {"bias": bias}}))
    return str(path)


def seat_rows(counts, games=100):
    """Synthetic rows: seat i wins counts[i] of ``games`` games (the rest are draws)."""
    winners = [s for s, c in enumerate(counts) for _ in range(c)]
    winners += [None] * (games - len(winners))
    roles = [f"seat {i}" for i in range(len(counts))]
    return [{"winners": [] if w is None else [w], "roles": roles, "truncated": False, "turns": 1, "seed": i}
            for i, w in enumerate(winners)]


def coin_rows(bias, games, seed):
    return play_rows(RunConfig("coin", 2, "default", {"bias": bias}, ("random", "random"), games, seed).to_json(), range(games))


# -- the incumbent -----------------------------------------------------------------------------------

def test_the_designers_values_race_every_rung_on_the_same_games_as_the_best():
    # bias 80 is far from fair: the old tuner dropped it after rung 0 and compared its 100 games with the best's 900
    res = tune("coin", targets=["balance"], trials=9, games=100, rungs=3, eta=3, seed=2)
    for rung, n in enumerate(res["rung_games"]):
        assert [r["games"] for r in res["trial_table"] if r["rung"] == rung and r["number"] == 0] == [n]
    assert res["default_games"] == res["best"]["games"] == res["rung_games"][-1] == 900
    top = {r["number"]: r for r in res["trial_table"] if r["rung"] == 2}
    assert res["default_losses"] == top[0]["losses"]


# -- what the confirmation may say -------------------------------------------------------------------

def coin_config(values, n, seed):
    return RunConfig("coin", 2, "default", {"bias": values["bias"]}, ("random", "random"), n, seed)


def test_a_better_setting_is_not_needed_when_the_designers_values_meet_the_target_on_fresh_games():
    # bias 52 (a 4-point gap) meets the 10-point tolerance; bias 50 is better, but no change was needed
    result = {"defaults": {"bias": 52}, "best": {"params": {"bias": 50}, "reached": True}, "seed": 3, "players": 2, "tolerance": [0.10]}
    conf = confirm(result, [Target.parse("balance")], coin_config, 3000, 1, None)
    assert conf["tests"][0]["difference"] < 0 and conf["tests"][0]["p_value"] < 0.05
    assert conf["original_reaches"] and conf["verdict"] == "not needed"
    assert "reaches the target" not in conf["text"]


def test_a_significantly_worse_setting_is_called_worse_not_indistinguishable():
    result = {"defaults": {"bias": 50}, "best": {"params": {"bias": 80}, "reached": False}, "seed": 3, "players": 2, "tolerance": [0.05]}
    conf = confirm(result, [Target.parse("balance")], coin_config, 300, 1, None)
    assert conf["verdict"] == "worse than the original" and conf["tests"][0]["worse"]


# -- saving only what was confirmed ------------------------------------------------------------------

def fabricated(verdict, p=0.4):
    return {"game": "coin", "variant": "default", "targets": ["balance"], "tolerance": [0.05], "trials": 12, "games_per_trial": 100,
            "defaults": {"bias": 52}, "default_losses": [0.04], "default_games": 900, "default_reached": True,
            "best": {"params": {"bias": 47}, "losses": [0.01], "intervals": [[0.0, 0.05]], "games": 900, "reached": True, "distance": 0.05},
            "players": 2, "sampler": "tpe", "rung_games": [100, 300, 900], "games_played": 2000, "seed": 0, "trial_table": [],
            "confirmation": {"verdict": verdict, "games": 900, "seed": 7, "games_played": 1800,
                             "tests": [{"p_value": p, "p_holm": p, "difference": 0.01}],
                             "text": f"On 900 fresh games the tuned setting is {verdict}: ..."}}


def test_save_variant_refuses_an_unconfirmed_setting_unless_asked(tmp_path):
    res = fabricated("not distinguishable from the original", p=0.42)
    path = tmp_path / "v.json"
    with pytest.raises(UnconfirmedSettingError, match="--save-unconfirmed"):
        save_variant(res, path)
    assert not path.exists()
    save_variant(res, path, unconfirmed=True)
    doc = json.loads(path.read_text())
    assert doc["overrides"] == {"bias": 47}
    assert doc["confirmation"]["verdict"] == "not distinguishable from the original"
    assert doc["confirmation"]["p_values"] == {"balance": 0.42} and doc["confirmation"]["confirmed"] is False
    assert "NOT confirmed" in doc["description"]


def test_save_variant_writes_a_confirmed_setting_with_its_p_value(tmp_path):
    doc = json.loads(save_variant(fabricated("confirmed", p=0.003), tmp_path / "v.json").read_text())
    assert doc["overrides"] == {"bias": 47} and doc["confirmation"]["confirmed"] is True
    assert doc["confirmation"]["p_values"] == {"balance": 0.003}
    # another point of the search (not the confirmed choice) is not confirmed
    with pytest.raises(UnconfirmedSettingError):
        save_variant(fabricated("confirmed"), tmp_path / "w.json", params={"bias": 30})


def test_tune_html_says_reaches_only_for_a_setting_confirmed_on_fresh_games(tmp_path):
    write_tune_folder(tmp_path / "a", fabricated("not distinguishable from the original"))
    page = (tmp_path / "a" / "tune.html").read_text()
    assert "reaches the target" not in page and "only the fresh" in page
    # the same search, confirmed and within tolerance on the fresh games
    res = fabricated("confirmed", p=0.001)
    res["confirmation"]["text"] = "On 900 fresh games the tuned setting is confirmed and reaches the target: ..."
    write_tune_folder(tmp_path / "b", res)
    assert "reaches the target" in (tmp_path / "b" / "tune.html").read_text()


def test_cli_withholds_an_unconfirmed_variant_file_and_writes_it_on_request(tmp_path, capsys):
    from boardlab.cli import main

    variant = variant_file(tmp_path, 60)
    args = ["tune", "coin", "--target", "balance", "--trials", "10", "--games", "60", "--rungs", "2", "--confirm-games", "20",
            "--seed", "3", "--variant", variant, "--out", str(tmp_path / "t"), "--json"]
    path = tmp_path / "tuned.json"
    with pytest.raises(SystemExit) as exc:
        main(args + ["--save-variant", str(path)])
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["confirmation"]["verdict"] == "not distinguishable from the original"
    assert exc.value.code == 1 and "--save-unconfirmed" in err and not path.exists()
    with pytest.raises(SystemExit) as exc:
        main(args + ["--save-variant", str(path), "--save-unconfirmed"])
    assert exc.value.code == 0
    doc = json.loads(path.read_text())
    assert doc["confirmation"]["verdict"] == "not distinguishable from the original" and "balance" in doc["confirmation"]["p_values"]


def test_cli_save_unconfirmed_without_a_file_is_refused(capsys):
    from boardlab.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["tune", "coin", "--target", "balance", "--save-unconfirmed"])
    assert exc.value.code == 2 and "--save-variant" in capsys.readouterr().err


# -- intervals from scipy.stats.bootstrap (BCa) ------------------------------------------------------

@pytest.mark.parametrize("counts", [[25, 25, 25, 25], [25, 25, 24, 26], [23, 27, 25, 25], [50, 50], [30, 70], [10, 30, 20, 40]])
def test_each_loss_interval_holds_its_estimate_even_near_zero(counts):
    # the percentile bootstrap of the max-min gap gave 0.020 [0.030, 0.190] for 25/25/24/26
    rows = seat_rows(counts)
    t = Target.parse("balance")
    est = t.loss(rows, len(counts))
    low, high = loss_interval(t, rows, len(counts))
    assert low <= est <= high and high > 0.05  # and it is not the degenerate [0, 0] of a bootstrap of the gap itself


def test_loss_intervals_of_real_runs_hold_their_estimates():
    t = Target.parse("balance")
    for seed in range(12):
        rows = coin_rows(50, 100, seed)
        low, high = loss_interval(t, rows, 2, seed=seed)
        assert low <= t.loss(rows, 2) <= high


def test_a_two_seat_interval_is_scipys_bca_interval_of_the_win_rate_difference():
    rows = coin_rows(58, 300, 4)
    d = np.array([(0 in r["winners"]) - (1 in r["winners"]) for r in rows], dtype=float)
    ref = stats.bootstrap((d,), np.mean, n_resamples=RESAMPLES, batch=256, method="BCa", rng=np.random.default_rng(11))
    lo, hi = ref.confidence_interval
    assert lo > 0  # bias 58: seat 0 ahead, so the gap's interval is the difference's
    assert loss_interval(Target.parse("balance"), rows, 2, seed=11) == pytest.approx((lo, hi), abs=1e-12)


def test_the_paired_test_is_scipys_paired_bca_bootstrap_and_its_p_value_inverts_the_interval():
    a, b = coin_rows(60, 200, 9), coin_rows(57, 200, 9)  # paired seeds: only the draws in 57..59 differ
    wins = [np.array([float(s in r["winners"]) for r in rows]) for rows in (a, b) for s in (0, 1)]

    def gap_change(a0, a1, b0, b1, axis=-1):  # loss(B) - loss(A), each loss the seats' win-rate gap
        return np.abs(b0.mean(axis=axis) - b1.mean(axis=axis)) - np.abs(a0.mean(axis=axis) - a1.mean(axis=axis))

    ref = stats.bootstrap(wins, gap_change, paired=True, n_resamples=RESAMPLES, batch=256, method="BCa", rng=np.random.default_rng(5))
    t = paired_loss_test(Target.parse("balance"), a, b, 2, seed=5)
    assert (t["ci_low"], t["ci_high"]) == pytest.approx(tuple(ref.confidence_interval), abs=1e-9)
    assert 0 < t["p_value"] < 1 and (t["p_value"] < 0.05) == (t["ci_high"] < 0 or t["ci_low"] > 0)
    # at confidence 1 - p the interval reaches zero
    at = stats.bootstrap(wins, gap_change, paired=True, n_resamples=0, batch=256, method="BCa", bootstrap_result=ref,
                         confidence_level=1 - t["p_value"], rng=np.random.default_rng(5))
    assert min(abs(at.confidence_interval.low), abs(at.confidence_interval.high)) < 0.005


# -- progress ----------------------------------------------------------------------------------------

def test_progress_counts_every_game_duplicates_and_confirmation_included(tmp_path):
    calls = []
    # 30 random draws of bias in 0..100 repeat some values: duplicates play no games and leave the count
    res = tune("coin", targets=["balance"], trials=30, games=40, rungs=2, sampler="random", seed=6, out=tmp_path / "t",
               progress=lambda done, total: calls.append((done, total)))
    assert any(r["duplicate_of"] is not None for r in res["trial_table"])
    conf = res["confirmation"]
    assert conf["verdict"] == "confirmed" and conf["games_played"] == 2 * conf["games"]
    done = [d for d, _ in calls]
    assert done == sorted(done) and all(d <= t for d, t in calls)
    assert calls[-1] == (res["games_played"] + conf["games_played"],) * 2 == (res["games_played_total"],) * 2
