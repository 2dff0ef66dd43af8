"""playtest --variant base,a,b (issue 34): every variant on the same seeds, each compared with the base in one table
corrected as one family, and a forest plot."""

from __future__ import annotations

import json

import pytest

from boardlab.cli import main


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


ARGS = ["playtest", "dungeons-jewel", "--players", "2", "--games", "12", "--agents", "random", "--max-turns", "150",
        "--variant", "rulebook,concept,revised", "--jobs", "1"]


def test_three_variants_in_one_command(tmp_path, capsys):
    code, out, err = run([*ARGS, "--out", str(tmp_path), "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert [r["folder"].rsplit("/", 1)[1] for r in doc["runs"]] == ["rulebook", "concept", "revised"]
    cmp = doc["comparison"]
    # per variant: the winner distribution, two seats, truncation, turns, decisions and the experience metrics these
    # games recorded (kingmaking needs three players; decided at, a leader, which random play here never gives)
    assert cmp["base"] == "rulebook" and cmp["family"] == 2 * (6 + 3)
    assert {t["measure"] for t in cmp["table"]} == {"winner distribution", "seat 0 win rate", "seat 1 win rate", "truncated",
                                                   "mean turns", "mean decisions", "mean downtime", "mean waiting while out",
                                                   "mean lead changes"}
    assert {t["variant"] for t in cmp["table"]} == {"concept", "revised"}
    code, out, err = run([*ARGS, "--out", str(tmp_path), "--quiet"], capsys)
    assert code == 0, err
    assert "Variants against rulebook" in out and "Forest plot:" in out
    assert (tmp_path / "forest-rulebook.svg").read_text().startswith("<svg")


def test_too_many_variants_is_a_one_line_error(capsys):
    code, out, err = run(["playtest", "blackfire", "--variant", ",".join(["final"] * 9)], capsys)
    assert code == 2 and "up to 8" in err and len(err.strip().splitlines()) == 1


def test_detect_picks_the_games_that_see_the_edge(tmp_path, capsys):
    """--detect 0.1 at 2 players: (z(1 - 0.05/6) + z(0.8))^2 * 0.25 / 0.1^2 games (issue 33)."""
    from boardlab.cli.playtest import games_for_edge
    from boardlab.playtest.power import games_to_see_share

    assert games_for_edge(2, 0.1) == games_to_see_share(0.1, 0.5, 0.05 / 3) == 262
    assert games_for_edge(4, 0.02) == 5475  # the Dungeon's Jewel's 2-point first-player edge needs thousands of games, not 300
    code, out, err = run(["playtest", "blackfire", "--detect", "0.3", "--agents", "random", "--max-turns", "30",
                          "--out", str(tmp_path), "--jobs", "1", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["games"] == games_for_edge(2, 0.3)
    code, out, err = run(["playtest", "blackfire", "--detect", "0.0001"], capsys)
    assert code == 2 and "more than 1,000,000" in err
