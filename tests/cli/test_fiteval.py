"""``boardlab fit-eval``: writes an evaluation file search agents can use."""

from __future__ import annotations

import json

from boardlab.engine.evaluation import FittedEvaluation


def test_fit_eval_writes_a_loadable_file_and_merges(run, tmp_path):
    out = tmp_path / "e.json"
    r = run("fit-eval", "toy", "--games", "10", "--agents", "random", "--out", out)
    assert r.exit_code == 0, r.output
    assert "held-out log-loss" in r.stdout
    ev = FittedEvaluation.load(out)
    assert ev.game_id == "toy" and sorted(ev.models) == [2]
    r = run("fit-eval", "toy", "--games", "10", "--players", "3", "--agents", "random", "--out", out, "--merge")
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert sorted(data["models"]) == ["2", "3"]
    assert data["fit"]["3"]["agents"] == ["random"] and data["fit"]["3"]["games"] == 10


def test_fit_eval_refuses_a_malformed_file_to_merge_into(run, tmp_path):
    out = tmp_path / "e.json"
    out.write_text("{}")
    r = run("fit-eval", "toy", "--games", "10", "--out", out, "--merge")
    assert r.exit_code == 2 and r.stderr.startswith("boardlab: error: ")
    assert out.read_text() == "{}"  # nothing changed
