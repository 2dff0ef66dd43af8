"""boardlab study PLAN.toml (issue 34, item 5): a designer's questions answered end to end, one Holm family, with
plain-words verdicts; bad study files are one-line errors (exit 2)."""

from __future__ import annotations

import json

import pytest
from scipy.stats import ttest_1samp

from boardlab.cli import main
from boardlab.playtest.power import games_to_see_paired, games_to_see_share
from boardlab.playtest.study import Question, RunSpec, decide, measure, parse
from boardlab.stats import ALPHA, wilson

SMALL = """
title = "A small Blackfire study"
game = "blackfire"
seed = 1
max_games = 24
pilot_games = 12

[[question]]
id = "green-side"
ask = "Does green, who always acts first, win more than half?"
metric = "win-rate"
who = "green"
expect = "above"
smallest_effect = 0.1

[[question]]
id = "prototype"
ask = "The first rules needed change: the prototype favours red."
variant = "prototype"
base = "final"
metric = "win-rate"
who = "green"
expect = "below"
smallest_effect = 0.2

[[question]]
id = "length"
metric = "turns"
against = 10
expect = "above"
smallest_effect = 3
"""


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_a_small_study_end_to_end(tmp_path, capsys):
    plan = tmp_path / "small.toml"
    plan.write_text(SMALL)
    out = tmp_path / "out"
    code, stdout, err = run(["study", str(plan), "--out", str(out), "--jobs", "1", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(stdout)
    qs = {q["id"]: q for q in doc["questions"]}
    # the prototype's red dominance (findings: red 96%) is seen at once, in the direction the designers saw
    assert qs["prototype"]["verdict"] == "holds" and qs["prototype"]["estimate"] < -0.2
    assert qs["prototype"]["words"].startswith("Holds: green wins")
    # planning: each question gets the games that see its smallest effect at 0.05/3 with 80% power, capped at 24
    plan_rows = {p["id"]: p for p in doc["plan"]}
    assert plan_rows["green-side"]["games"] == min(24, max(12, games_to_see_share(0.1, 0.5, ALPHA / 3))) == 24
    assert plan_rows["green-side"]["capped"]
    # runs: the default variant is final, so final is one run shared by two questions (three runs would replay it)
    assert [r["games"] for r in doc["runs"]] == [24, 24]
    # one Holm family: the smallest p-value is multiplied by the number of questions; intervals at the step's level
    ps = sorted(doc["questions"], key=lambda q: q["p_value"])
    assert ps[0]["p_holm"] == pytest.approx(min(1.0, 3 * ps[0]["p_value"])) and ps[0]["alpha"] == pytest.approx(ALPHA / 3)
    g = qs["green-side"]
    # "above": the one-sided score test, so the interval is Wilson's at twice the level (each end a one-sided bound)
    lo, hi = wilson(g["k"], g["n"], alpha=2 * g["alpha"])
    assert g["alternative"] == "greater" and (g["lo"], g["hi"]) == pytest.approx((lo - 0.5, hi - 0.5))
    assert "one-sided score test" in g["words"] and "each end a one-sided" in g["words"]
    assert g["verdict"] == decide("above", g["lo"], g["hi"], 0.1)
    if g["verdict"] == "undecided":
        assert "the run could see an effect of" in g["words"]
    page = (out / "study.html").read_text()
    for q in doc["questions"]:
        assert f'id="q-{q["id"]}"' in page and q["verdict"] in page
    for r in doc["runs"]:  # every run is a finished playtest run with its own report, linked from the study's
        assert (out / r["report"]).exists() and f'href="{r["report"]}"' in page
    table = (out / "study.md").read_text()
    assert "| the seed says | the simulation | verdict |" in table and "| **holds** |" in table
    # an interrupted or repeated study resumes: the same folder gives the same answers without replaying
    code, stdout2, err = run(["study", str(plan), "--out", str(out), "--jobs", "1", "--json"], capsys)
    assert code == 0, err
    assert json.loads(stdout2)["questions"] == doc["questions"]


def test_a_grown_run_keeps_its_games(tmp_path, capsys):
    plan = tmp_path / "s.toml"
    plan.write_text(SMALL.split("[[question]]\nid = \"prototype\"")[0])  # one question, one run
    out = tmp_path / "out"
    assert run(["study", str(plan), "--out", str(out), "--jobs", "1", "--quiet", "--max-games", "12"], capsys)[0] == 0
    small = json.loads((out / "study.json").read_text())
    assert [r["games"] for r in small["runs"]] == [12]
    assert run(["study", str(plan), "--out", str(out), "--jobs", "1", "--quiet"], capsys)[0] == 0
    big = json.loads((out / "study.json").read_text())
    assert [r["games"] for r in big["runs"]] == [24]
    from boardlab.playtest import plan_run
    from boardlab.playtest.simulate import play_rows
    from boardlab.playtest.store import RunDir

    fresh = play_rows(plan_run("blackfire", games=24, seed=1, variant="final").to_json(), range(24))
    grown = RunDir(big["runs"][0]["folder"]).read_results()  # 12 games played, then 12 more: the same as 24 at once
    assert [(r["seed"], r["winners"], r["turns"]) for r in grown] == [(r["seed"], r["winners"], r["turns"]) for r in fresh]


@pytest.mark.parametrize("expect, lo, hi, verdict", [
    ("above", 0.01, 0.09, "holds"),            # above zero beyond chance
    ("above", -0.02, 0.04, "does not hold"),   # no edge of 5 points is possible
    ("above", -0.02, 0.09, "undecided"),
    ("below", -0.09, -0.01, "holds"),
    ("below", -0.04, 0.02, "does not hold"),
    ("differs", 0.06, 0.2, "holds"),
    ("differs", -0.04, 0.04, "does not hold"),
    ("none", -0.04, 0.04, "holds"),            # any effect is smaller than what matters
    ("none", 0.01, 0.08, "does not hold"),
    ("none", -0.01, 0.08, "undecided"),
])
def test_decide(expect, lo, hi, verdict):
    assert decide(expect, lo, hi, 0.05) == verdict


def _row(i, winners, turns, first=0):
    return {"index": i, "seed": i, "players": 2, "roles": ["green", "red"], "winners": winners,
            "winner_roles": [["green", "red"][w] for w in winners], "truncated": False, "turns": turns, "decisions": turns,
            "first_seat": first, "lead_changes": 0, "closeness": 1.0}


def test_measures_on_hand_built_games():
    rows = [_row(i, [0] if i < 7 else [1], 10 + i) for i in range(10)]
    spec = RunSpec("final", (), None, ("heuristic",))
    seat = measure(Question("a", "", "win-rate", "above", 0.1, spec, who="seat 0"), rows, None)
    assert (seat["k"], seat["estimate"], seat["reference"]) == (7, 0.7, 0.5)
    fixed = measure(Question("b", "", "win-rate", "above", 0.1, spec, who="red", against=0.2), rows, None)
    assert (fixed["estimate"], fixed["reference"]) == (0.3, 0.2)
    turns = [10 + i for i in range(10)]
    length = measure(Question("c", "", "turns", "below", 2, spec, against=12), rows, None)
    assert length["estimate"] == pytest.approx(14.5)
    assert length["p_value"] == pytest.approx(ttest_1samp(turns, 12, alternative="less").pvalue)  # "below": one-sided
    other = [_row(i, [1], 10 + i) for i in range(10)]  # the variant: red always wins, same lengths
    effect = measure(Question("d", "", "win-rate", "below", 0.1, RunSpec("prototype", (), None, ("heuristic",)), base=spec,
                              who="green"), other, rows)
    assert effect["estimate"] == pytest.approx(-0.7) and effect["spread"] == pytest.approx(0.7)  # 7 of 10 pairs differ
    assert games_to_see_paired(0.1, effect["spread"], ALPHA) > 10


BAD = {
    "bad toml": ("game = \n", "not valid TOML"),
    "unknown key": ('game = "blackfire"\ncolour = 1\n[[question]]\nmetric = "turns"\nagainst = 3\nsmallest_effect = 1\n', "unknown key 'colour'"),
    "unknown question key": ('game = "blackfire"\n[[question]]\nmetric = "turns"\nagainst = 3\nsmallest_effect = 1\nexpect = "above"\nfoo = 2\n', "unknown key 'foo'"),
    "unknown game": ('game = "chess"\n[[question]]\nmetric = "turns"\n', "chess"),
    "unknown variant": ('game = "blackfire"\n[[question]]\nvariant = "nope"\nmetric = "turns"\nagainst = 3\nsmallest_effect = 1\nexpect = "above"\n', "nope"),
    "unknown content": ('game = "dungeons-jewel"\n[[question]]\nvariant = "rulebook+without:item:glovez"\nmetric = "turns"\nagainst = 3\nsmallest_effect = 1\nexpect = "above"\n', "glovez"),
    "unknown metric": ('game = "blackfire"\n[[question]]\nmetric = "fun"\nsmallest_effect = 1\n', "unknown metric 'fun'"),
    "no questions": ('game = "blackfire"\n', "at least one [[question]]"),
    "missing target": ('game = "blackfire"\n[[question]]\nmetric = "turns"\nexpect = "below"\nsmallest_effect = 1\n', "needs 'against'"),
    "bad effect": ('game = "blackfire"\n[[question]]\nmetric = "win-rate"\nwho = "seat 0"\nexpect = "above"\nsmallest_effect = 5\n', "smallest_effect"),
    "no such seat": ('game = "blackfire"\n[[question]]\nmetric = "win-rate"\nwho = "seat 2"\nexpect = "above"\nsmallest_effect = 0.1\n', "no seat 2"),
    "bad option": ('game = "blackfire"\n[[question]]\nmetric = "turns"\noptions = {sorcerer_move = 9}\nbase = "final"\nexpect = "below"\nsmallest_effect = 1\n', "sorcerer_move"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_study_files_are_one_line_errors(name, tmp_path, capsys):
    text, needle = BAD[name]
    plan = tmp_path / "plan.toml"
    plan.write_text(text)
    code, out, err = run(["study", str(plan), "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err
    assert not (tmp_path / "out").exists()  # nothing was played


def test_unknown_side_and_missing_file(tmp_path, capsys):
    code, _, err = run(["study", str(tmp_path / "none.toml")], capsys)
    assert code == 2 and "cannot read study file" in err
    plan = tmp_path / "p.toml"
    plan.write_text('game = "blackfire"\npilot_games = 2\n[[question]]\nmetric = "win-rate"\nwho = "blue"\nexpect = "above"\nsmallest_effect = 0.1\n')
    code, _, err = run(["study", str(plan), "--out", str(tmp_path / "o"), "--jobs", "1"], capsys)
    assert code == 2 and "no side named 'blue'" in err and len(err.strip().splitlines()) == 1


def test_the_shipped_studies_parse():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "studies"
    files = sorted(root.glob("*.toml"))
    assert {f.stem for f in files} >= {"armies", "blackfire", "dungeons-jewel", "summoners-quest", "wizards-labyrinth"}
    for f in files:
        study = parse(tomllib.loads(f.read_text()), str(f))
        assert study.game == f.stem and all(q.ask for q in study.questions)
