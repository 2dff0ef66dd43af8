"""docs/findings/ is the output of the studies (issue 34): ``boardlab study PLAN.toml --findings PAGE`` rewrites the
block between ``<!-- study:begin -->`` and ``<!-- study:end -->`` of a findings page from the study's results, keeps
the prose around it, and writes the same bytes again for the same seed. Also: the new study keys (a usage counter
``count:KEY``, restricted play, a question's own ``max_games``) and every shipped page's markers and study."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.playtest import findings
from boardlab.playtest.metrics import win_rates_by_role
from boardlab.playtest.store import RunDir
from boardlab.playtest.study import Question, RunSpec, Study, answer, load, parse

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("armies", "blackfire", "dungeons-jewel", "summoners-quest", "wizards-labyrinth")

TINY = """
title = "A tiny Blackfire study"
game = "blackfire"
seed = 7
pilot_games = 6
max_games = 10

[[question]]
id = "prototype-lopsided"
ask = "The prototype favours red."
variant = "prototype"
base = "final"
metric = "win-rate"
who = "green"
expect = "below"
smallest_effect = 0.2

[[question]]
id = "kills"
ask = "Kills happen: kills per game."
metric = "count:rule:kill"
against = 0
expect = "above"
smallest_effect = 1
max_games = 8
"""

PAGE = """# Findings: a tiny page

Hand-written prose that states no figure.

<!-- study:begin -->
stale: green wins 99.9% (this line must go)
<!-- study:end -->

## After

More prose.
"""


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_a_tiny_study_rewrites_its_findings_page_from_its_results(tmp_path, capsys):
    plan = tmp_path / "tiny.toml"
    plan.write_text(TINY)
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    code, stdout, err = run(["study", str(plan), "--out", str(tmp_path / "a"), "--jobs", "1", "--json",
                             "--findings", str(page)], capsys)
    assert code == 0, err
    doc = json.loads(stdout)
    text = page.read_text()
    # the prose outside the markers is kept byte for byte; the stale block is gone
    before, rest = PAGE.split(findings.BEGIN)
    after = rest.split(findings.END)[1]
    assert text.startswith(before) and text.endswith(after) and "99.9%" not in text
    inside = text[text.index(findings.BEGIN):text.index(findings.END)]
    assert f"`boardlab study {plan} --findings {page}`" in inside
    # every question's verdict and its words, as the study answered them
    for a in doc["questions"]:
        assert f"| {a['ask']} | {a['words'].split(': ', 1)[1]} | **{a['verdict']}** |" in inside
    # the usage counter question is the mean of the counter, summed over seats, over its run's games
    kills = {a["id"]: a for a in doc["questions"]}["kills"]
    final = [r for r in doc["runs"] if r["label"] == "final (heuristic)"][0]
    rows = RunDir(final["folder"]).read_results()
    per_game = [sum((json.loads(r["metrics"]) if isinstance(r["metrics"], str) else r["metrics"])["rule:kill"]) for r in rows]
    assert kills["n"] == len(rows) and kills["estimate"] == pytest.approx(sum(per_game) / len(per_game))
    # each run's figures come from its own games: the game count and the side table
    for r in doc["runs"]:
        games = RunDir(r["folder"]).read_results()
        assert f"#### {r['label']}\n\n{len(games)} games," in inside
        for role, w in win_rates_by_role(games).items():
            assert f"| {role} | {100 * w['rate']:.1f}% | {100 * w['ci_low']:.1f}% - {100 * w['ci_high']:.1f}% |" in inside
    # resumed in the same folder (its runs are finished, and hold the pilot's extra games): the same plan, the same bytes
    code, _, err = run(["study", str(plan), "--out", str(tmp_path / "a"), "--jobs", "1", "--quiet", "--findings", str(page)], capsys)
    assert code == 0, err
    assert page.read_text() == text
    # the same study with the same seed, played again from scratch, writes the same bytes
    again = tmp_path / "again.md"
    again.write_text(PAGE)
    code, _, err = run(["study", str(plan), "--out", str(tmp_path / "b"), "--jobs", "2", "--quiet",
                        "--findings", str(again)], capsys)
    assert code == 0, err
    assert again.read_text().replace(str(again), str(page)) == text
    # a smaller study on folders an earlier, larger one grew answers with the games it planned: as a fresh one does
    pages = []
    for out in ("a", "c"):
        small = tmp_path / f"small-{out}.md"
        small.write_text(PAGE)
        code, _, err = run(["study", str(plan), "--out", str(tmp_path / out), "--jobs", "1", "--quiet", "--max-games", "6",
                            "--findings", str(small)], capsys)
        assert code == 0, err
        pages.append(small.read_text().replace(str(small), "PAGE"))
    assert pages[0] == pages[1] and "\n6 games, agents" in pages[0] and "\n10 games, agents" not in pages[0]


def test_a_page_without_its_markers_is_a_one_line_error_before_any_game(tmp_path, capsys):
    plan = tmp_path / "tiny.toml"
    plan.write_text(TINY)
    page = tmp_path / "page.md"
    page.write_text("# no markers\n")
    code, _, err = run(["study", str(plan), "--out", str(tmp_path / "o"), "--findings", str(page)], capsys)
    assert code == 2 and "study:begin" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "o").exists() and page.read_text() == "# no markers\n"
    with pytest.raises(Exception, match="one <!-- study:begin -->"):
        findings.replace_block(f"{findings.BEGIN}\n{findings.END}\n{findings.BEGIN}\n{findings.END}", "x")


def test_restricted_play_and_a_questions_own_cap_are_study_keys():
    doc = tomllib.loads("""
game = "wizards-labyrinth"
players = 4
[[question]]
id = "switcheroo"
restrict = { 0 = "card:Switcheroo" }
base = "final"
metric = "win-rate"
who = "wizard"
expect = "below"
smallest_effect = 0.1
max_games = 30
""")
    study = parse(doc)
    q = study.questions[0]
    assert q.run.restrict == ((0, ("card:Switcheroo",)),) and q.base.restrict == () and q.max_games == 30
    assert "seat 0 never takes card:Switcheroo" in q.run.label()
    assert RunSpec("final", (), 4, ("heuristic",)) == q.base  # the default: no restriction
    question = ['[[question]]', 'id = "q"', 'base = "final"', 'metric = "win-rate"', 'who = "wizard"', 'expect = "below"',
                'smallest_effect = 0.1']
    for extra, needle in (('restrict = { 0 = "card:Nothing" }', "Nothing"), ('restrict = ["card:Switcheroo"]', "'restrict' must be"),
                          ('base_restrict = { 9 = "card:Switcheroo" }', "seat 9"), ('max_games = 0', "'max_games' must be")):
        with pytest.raises(Exception, match=re.escape(needle)):
            parse(tomllib.loads("\n".join(['game = "wizards-labyrinth"', "players = 4", *question, extra])))
    with pytest.raises(Exception, match="unknown metric"):
        parse(tomllib.loads("\n".join(['game = "blackfire"', *question[:3], 'metric = "count:"', 'expect = "above"',
                                         'against = 0', 'smallest_effect = 1'])))


def test_a_change_that_changes_no_game_is_answered_not_a_crash():
    """A rule change no game's result or length notices (e.g. an archer contest the bots never meet) has no bootstrap
    distribution: its effect is exactly 0, and the verdict says so instead of failing (found by the Blackfire study)."""
    def row(i, kills):
        return {"index": i, "seed": i, "players": 2, "roles": ["green", "red"], "winners": [i % 2],
                "winner_roles": [["green", "red"][i % 2]], "truncated": False, "turns": 12, "decisions": 30,
                "first_seat": 0, "lead_changes": 0, "closeness": 1.0, "metrics": {"rule:kill": [kills, 1]}}
    final = RunSpec("final", (), None, ("heuristic",))
    flip = RunSpec("final", (("archer_contest", False),), None, ("heuristic",))
    qs = [Question("win", "", "win-rate", "differs", 0.1, flip, final, who="green"),
          Question("len", "", "turns", "differs", 3, flip, final),
          Question("kills", "", "count:rule:kill", "above", 1, final, against=0)]
    data = {final: [row(i, i % 3) for i in range(40)], flip: [row(i, i % 3) for i in range(40)]}
    out = {a["id"]: a for a in answer(Study("blackfire", "t", 1, 40, 10, qs), data)}
    for key in ("win", "len"):
        assert (out[key]["estimate"], out[key]["lo"], out[key]["hi"]) == (0.0, 0.0, 0.0)
        assert out[key]["verdict"] == "does not hold"  # no game changed: any effect is smaller than what matters
    assert out["kills"]["estimate"] == pytest.approx(sum(i % 3 + 1 for i in range(40)) / 40)  # summed over both seats
    for r in data[final][:20]:  # games that record only the counters that happened: an absent counter is 0
        r["metrics"] = {}
    out = {a["id"]: a for a in answer(Study("blackfire", "t", 1, 40, 10, qs[2:]), data)}
    assert out["kills"]["estimate"] == pytest.approx(sum(i % 3 + 1 for i in range(20, 40)) / 40)


def test_a_misspelt_counter_is_a_one_line_error(tmp_path, capsys):
    plan = tmp_path / "p.toml"
    plan.write_text('game = "blackfire"\npilot_games = 2\n[[question]]\nmetric = "count:rule:kills"\nagainst = 0\n'
                    'expect = "above"\nsmallest_effect = 1\n')
    code, _, err = run(["study", str(plan), "--out", str(tmp_path / "o"), "--jobs", "1", "--quiet"], capsys)
    assert code == 2 and "usage counter 'rule:kills'" in err and "rule:kill," in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("game", GAMES)
def test_every_findings_page_is_written_by_its_study(game):
    """Each page has one generated block, written by its own study file (which parses), and its prose outside the
    block states no figure the study did not produce: no percentage and no decimal number."""
    study = load(ROOT / "studies" / f"{game}.toml")
    assert study.game == game and all(q.ask for q in study.questions)
    text = (ROOT / "docs" / "findings" / f"{game}.md").read_text()
    assert text.count(findings.BEGIN) == 1 and text.count(findings.END) == 1
    start, end = text.index(findings.BEGIN), text.index(findings.END)
    inside, outside = text[start:end], text[:start] + text[end:]
    assert f"`boardlab study studies/{game}.toml --findings docs/findings/{game}.md`" in inside
    assert "<!-- figures:start -->" not in text and "<!-- rule-changes:start -->" not in text
    figures = re.findall(r"\d+(?:\.\d+)?\s?%|\b\d+\.\d+\b", outside)
    assert not figures, figures[:5]
