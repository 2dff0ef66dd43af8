"""``compare`` writes an HTML comparison beside the stdout table, with a verdict that respects Holm (issue 19)."""

import json

import pytest

from boardlab.cli import main
from boardlab.playtest.compare import compare_rows, comparison_verdict, paired_bootstrap


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def rows(winners_per_game, turns=10):
    return [{"seed": i, "game": "g", "players": 2, "winners": w, "roles": ["seat 0", "seat 1"],
             "winner_roles": [f"seat {x}" for x in w], "truncated": False, "turns": turns, "decisions": 2 * turns}
            for i, w in enumerate(winners_per_game)]


def test_verdict_names_a_difference_that_survives_holm_with_its_interval():
    a = rows([[0]] * 50 + [[1]] * 50)
    b = rows([[0]] * 20 + [[1]] * 80, turns=12)
    res = compare_rows(a, b)
    lines = comparison_verdict("A", "B", res)
    assert lines[0].startswith("The winners changed: who scores differs between A and B in 30 of 100 games")
    assert lines[1].startswith("Seat 0 wins 20% with B against 50% with A: 30 points less often [")
    assert res["win_by_seat"][0]["ci_high"] < 0 < res["win_by_seat"][1]["ci_low"]
    assert any(line.startswith("Games are 2.0 turns longer with B") for line in lines)


def test_verdict_does_not_call_noise_a_difference():
    a = rows([[0]] * 50 + [[1]] * 50)
    b = rows([[0]] * 46 + [[1]] * 54)
    lines = comparison_verdict("A", "B", compare_rows(a, b))
    assert lines[0].startswith("The distribution of winners is not seen to change: who scores differs in 4 of 100 games")
    assert lines[1].startswith("No win rate differs between A and B beyond chance")


def test_paired_bootstrap_uses_scipy_and_is_deterministic():
    x, y = [1, 2, 3, 4, 5, 6], [2, 2, 5, 4, 7, 9]
    assert paired_bootstrap(x, y) == paired_bootstrap(x, y)
    r = paired_bootstrap(x, y)
    assert r["ci_low"] <= r["difference"] == 8 / 6 <= r["ci_high"]


def test_compare_cli_writes_html(tmp_path, capsys):
    for v, out in (("rulebook", "a"), ("revised", "b")):
        code, _, err = run(["playtest", "dungeons-jewel", "--variant", v, "--games", "6", "--jobs", "1", "--max-turns", "60",
                            "--out", str(tmp_path / out), "--quiet", "--json"], capsys)
        assert code == 0, err
    code, out, err = run(["compare", str(tmp_path / "a"), str(tmp_path / "b")], capsys)
    assert code == 0, err
    page = (tmp_path / "b" / "comparison.html").read_text()
    assert "<h2>Verdict</h2>" in page and "<table>" in page and "<svg" in page and "rulebook" in page and "revised" in page
    code, out, err = run(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--json", "--html", str(tmp_path / "c.html")], capsys)
    assert json.loads(out)["html"] == str(tmp_path / "c.html") and (tmp_path / "c.html").exists()
