"""``boardlab playtest``, ``compare`` and ``tune`` from the command line."""

import json
import subprocess
import sys

import pytest

from boardlab.cli import main


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_playtest_json_and_compare(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    code, out, err = run(["playtest", "dungeons-jewel", "--games", "6", "--agents", "heuristic", "--jobs", "1", "--max-turns", "80", "--out", str(a), "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["games"] == 6 and len(doc["win_by_seat"]) == 4
    assert (a / "results.parquet").exists() and (a / "report.html").exists() and (a / "manifest.json").exists()
    code, out, err = run(["playtest", "dungeons-jewel", "--variant", "revised", "--games", "6", "--agents", "heuristic", "--jobs", "1", "--max-turns", "80", "--out", str(b), "--json"], capsys)
    assert code == 0, err
    code, out, err = run(["compare", str(a), str(b), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["paired_games"] == 6


def test_playtest_two_variants_on_paired_seeds(tmp_path, capsys):
    code, out, err = run(["playtest", "dungeons-jewel", "--variant", "rulebook,concept", "--games", "4", "--jobs", "1", "--max-turns", "60", "--out", str(tmp_path / "v"), "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert len(doc["runs"]) == 2 and doc["comparison"]["paired_games"] == 4


@pytest.mark.parametrize(
    "args",
    [
        ["playtest", "no-such-game", "--games", "2"],
        ["playtest", "dungeons-jewel", "--games", "0"],
        ["playtest", "dungeons-jewel", "--variant", "nope"],
        ["playtest", "dungeons-jewel", "--agents", "wizard-of-oz"],
        ["playtest", "dungeons-jewel", "--backend", "pigeon"],
        ["playtest", "dungeons-jewel", "--restrict", "seat=card"],
        ["compare", "/no/such/run", "/no/such/run2"],
        ["tune", "dungeons-jewel", "--target", "fun"],
        ["tune", "dungeons-jewel", "--target", "balance", "--params", "nope"],
        ["tune", "dungeons-jewel"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(args):
    out = subprocess.run([sys.executable, "-m", "boardlab.cli", *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "Traceback" not in out.stderr


def test_compare_refuses_a_folder_without_results(tmp_path, capsys):
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    code, _, err = run(["compare", str(tmp_path / "x"), str(tmp_path / "y")], capsys)
    assert code == 2 and "results.parquet" in err
