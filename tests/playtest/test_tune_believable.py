"""``tune`` you can believe: halving, smallest change that reaches the target, confirmation on fresh seeds (issue 19)."""

import json

from boardlab.playtest.tune import Target, confirm, paired_loss_test, tune
from boardlab.playtest.simulate import RunConfig, play_rows


def variant_file(tmp_path, bias):
    path = tmp_path / f"coin{bias}.json"
    path.write_text(json.dumps({"name": f"coin{bias}", "game": "coin", "base": "default", "overrides": {"bias": bias}}))
    return str(path)


def test_designers_values_inside_the_noise_are_kept(tmp_path):
    # bias 52 leaves a 4-point gap: within the 5-point tolerance, so no change is the answer (the old tuner moved it)
    res = tune("coin", targets=["balance"], trials=10, games=200, rungs=2, variant=variant_file(tmp_path, 52), seed=4)
    assert res["defaults"] == {"bias": 52}
    assert res["best"]["params"] == {"bias": 52} and res["best"]["reached"]
    assert res["confirmation"]["verdict"] == "no change"


def test_halving_gives_promising_settings_more_games_and_the_smallest_reaching_change_wins(tmp_path):
    res = tune("coin", targets=["balance"], trials=12, games=200, rungs=3, eta=3, seed=1, out=tmp_path / "t")
    assert res["rung_games"] == [200, 600, 1800]
    by_rung = [[r for r in res["trial_table"] if r["rung"] == k] for k in range(3)]
    # the best third go on, and the designer's values (trial 0, far from fair at bias 80) race every rung beside them
    assert [len(x) for x in by_rung] == [12, 4 + 1, 2 + 1]
    assert all(any(r["number"] == 0 for r in rung) for rung in by_rung)
    assert all(len(r["intervals"][0]) == 2 and r["intervals"][0][0] <= r["losses"][0] <= r["intervals"][0][1] for r in res["trial_table"])
    best = res["best"]
    assert best["games"] == 1800
    if best["reached"]:  # among settings that reach the target at the top rung, the nearest to the designer's 80
        top = [r for r in by_rung[2] if r["reached"]]
        assert best["distance"] == min(r["distance"] for r in top)
    conf = res["confirmation"]
    assert conf["verdict"] == "confirmed" and conf["tests"][0]["p_value"] < 0.05 and conf["seed"] != res["seed"]
    folder = tmp_path / "t"
    page = (folder / "tune.html").read_text()
    assert "<b>confirmed</b>" in page and "<table>" in page
    # the tuned run's report names the tuned values in its heading
    report = (folder / "confirm-tuned" / "report.html").read_text()
    assert f"bias={best['params']['bias']}" in report.split("<h1>")[1].split("</h1>")[0]
    assert (folder / "comparison.html").exists()


def test_confirmation_reports_not_distinguishable_when_the_rules_do_not_differ():
    # two "settings" that play the same rules: the paired test cannot tell them apart
    def config_for(values, n, seed):
        return RunConfig("coin", 2, "default", {"bias": 60}, ("random", "random"), n, seed)

    result = {"defaults": {"bias": 60}, "best": {"params": {"bias": 61}, "reached": False}, "seed": 3, "players": 2}
    conf = confirm(result, [Target.parse("balance")], config_for, 300, 1, None)
    assert conf["verdict"] == "not distinguishable from the original" and conf["tests"][0]["p_value"] == 1.0


def test_paired_loss_test_on_a_real_difference():
    a = play_rows(RunConfig("coin", 2, "default", {"bias": 80}, ("random", "random"), 400, 9).to_json(), range(400))
    b = play_rows(RunConfig("coin", 2, "default", {"bias": 50}, ("random", "random"), 400, 9).to_json(), range(400))
    t = paired_loss_test(Target.parse("balance"), a, b, 2)
    assert t["difference"] < 0 and t["ci_high"] < 0 and t["p_value"] < 0.01


def test_vectorised_losses_agree_with_the_target_loss():
    import numpy as np

    from boardlab.playtest.tune import _loss_of_resamples

    rows = play_rows(RunConfig("coin", 2, "default", {"bias": 70}, ("random", "random"), 50, 2).to_json(), range(50))
    for text in ("balance", "truncation", "length=3"):
        t = Target.parse(text)
        assert abs(_loss_of_resamples(t, rows, 2)(np.arange(50)[None, :])[0] - t.loss(rows, 2)) < 1e-12


def test_tune_cli_prints_the_trial_table_and_writes_the_folder(tmp_path, capsys):
    import pytest

    from boardlab.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["tune", "coin", "--target", "balance", "--trials", "4", "--games", "60", "--rungs", "2", "--out", str(tmp_path / "t")])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert "Trials" in out and "balance loss [95% CI]" in out and "Confirmation:" in out
    assert (tmp_path / "t" / "tune.html").exists() and (tmp_path / "t" / "tune.json").exists()


def test_confirmation_with_two_targets_needs_one_better_and_none_worse():
    def config_for(values, n, seed):
        return RunConfig("coin", 2, "default", {"bias": values["bias"]}, ("random", "random"), n, seed)

    result = {"defaults": {"bias": 80}, "best": {"params": {"bias": 50}, "reached": True}, "seed": 3, "players": 2}
    conf = confirm(result, [Target.parse("balance"), Target.parse("length=1")], config_for, 400, 1, None)
    assert conf["verdict"] == "confirmed" and conf["tests"][1]["p_value"] == 1.0
