"""Tag-taking options (``--restrict``) are checked against the game's own tag list (issue 19)."""

import re
import shlex
from pathlib import Path

import pytest

import boardlab
from boardlab.cli import main
from boardlab.engine.errors import InvalidOptionError
from boardlab.games import BUILTIN
from boardlab.playtest import plan_run
from boardlab.playtest.simulate import play_rows
from boardlab.playtest.tags import check_tags, explored_tags, game_tags

GAMES = sorted(BUILTIN)  # every built-in game: a new one is covered without an edit here
DOCS = Path(__file__).resolve().parents[2] / "docs"


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.mark.parametrize("game_id", GAMES)
def test_vocabulary_lists_every_tag_random_games_meet(game_id):
    game = boardlab.make(game_id)
    assert explored_tags(game, games=2) <= set(game_tags(game))


def test_case_insensitive_match_returns_the_games_spelling():
    game = boardlab.make("armies")
    assert check_tags(game, ["card:ambush", "RULE:ATTACK"]) == ["card:Ambush", "rule:attack"]


def test_near_miss_is_refused_with_a_suggestion():
    with pytest.raises(InvalidOptionError, match=r"did you mean 'card:Ambush'"):
        plan_run("armies", games=2, restrict={0: ["card:ambsh"]})


def test_unknown_tag_exits_2_with_one_line(capsys):
    code, out, err = run(["playtest", "armies", "--games", "1", "--restrict", "0=card:nothing-like-it"], capsys)
    assert code == 2 and err.count("\n") == 1 and "no action tag 'card:nothing-like-it'" in err and "Traceback" not in err


def test_list_tags(capsys):
    code, out, err = run(["playtest", "wizards-labyrinth", "--list-tags"], capsys)
    assert code == 0 and "card:Switcheroo" in out.split("\n")


def test_restriction_is_stored_in_the_games_spelling_and_bites():
    cfg = plan_run("armies", games=6, agents=["heuristic"], restrict={0: ["card:ambush", "card:AMBUSH"]})
    assert cfg.restrict == {0: ["card:Ambush"]}
    rows = play_rows(cfg.to_json(), list(range(6)))
    free = play_rows(plan_run("armies", games=6, agents=["heuristic"]).to_json(), list(range(6)))
    assert sum((r["metrics"].get("card:Ambush") or [0, 0])[0] for r in free) > 0  # seat 0 plays it when free
    assert all((r["metrics"].get("card:Ambush") or [0, 0])[0] == 0 for r in rows)


def _doc_examples():
    out = []
    for path in sorted(DOCS.rglob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.search(r"(boardlab playtest [^#`]*--restrict[^#`]*)", line)
            if m:
                out.append((path.name, m.group(1).strip()))
    return out


@pytest.mark.parametrize("where,command", _doc_examples())
def test_documented_restrict_examples_run(where, command, tmp_path, capsys):
    args = shlex.split(command)[1:]
    if "--games" in args:
        args[args.index("--games") + 1] = "2"
    else:
        args += ["--games", "2"]
    code, out, err = run(args + ["--jobs", "1", "--max-turns", "40", "--out", str(tmp_path / "r"), "--json"], capsys)
    assert code == 0, (where, command, err)


def test_docs_have_a_restrict_example():
    assert _doc_examples()


def test_a_restricted_runs_verdict_says_how_to_measure_the_effect(tmp_path):
    from boardlab.playtest import execute

    cfg = plan_run("armies", games=2, agents=["random"], restrict={0: ["card:ambush"]})
    res = execute(cfg, tmp_path / "r", jobs=1)
    assert any(v.startswith("Restricted play: seat 0 never took card:Ambush") for v in res["verdict"])
