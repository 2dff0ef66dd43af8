"""``boardlab new-game NAME``: the scaffolded game passes the shared checks before the designer changes a line.

The scaffold is written with ``--dir`` into a temporary copy of the files it edits (``pyproject.toml``,
``README.md``, ``boardlab/engine/registry.py``, ``scripts/concordance.py``), and the generated package is made importable
as ``boardlab.games.<pkg>`` in this process (its folder joins ``boardlab.games.__path__``) and registered
under its id, for this module only.  Then: its own generated tests, the conformance checks at every
decision, JSON round-trips, the indistinguishability check, the concordance of its rulebook, ``simulate``
and a playtest whose verdict counts draws.  The whole-repository run (``boardlab new-game demo`` in a clone,
then ``lint-imports``, ``scripts/concordance.py`` and pytest) is described in docs/architecture.md.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import itertools
import json
import shutil
import sys
from pathlib import Path

import pytest

import boardlab.games
from boardlab.cli import main
from boardlab.engine import Rng, make, registry
from boardlab.render.terminal import scene_text
from tests.conformance import (
    check_apply_after_game_over,
    check_bad_actions,
    check_json_forms,
    check_no_leak,
    check_playout,
    check_tampering,
)
from tests.test_indistinguishability import check_game

ROOT = Path(__file__).resolve().parents[2]
GAME, PKG, CLASS = "scaffold-probe", "scaffold_probe", "ScaffoldProbe"
FLAT, FLAT_PKG = "scaffold-flat", "scaffold_flat"  # the --no-board scaffold


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def layout(folder: Path) -> Path:
    """The files new-game edits, copied from this checkout into ``folder``."""
    for rel in ("pyproject.toml", "README.md", "boardlab/engine/registry.py", "scripts/concordance.py"):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, folder / rel)
    for rel in ("boardlab/games", "docs/rules", "tests"):
        (folder / rel).mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A layout with GAME (a board) and FLAT (no board) scaffolded, importable and registered for this module."""
    root = layout(tmp_path_factory.mktemp("checkout"))
    for name, extra in ((GAME, []), (FLAT, ["--no-board", "--players", "3"])):
        with pytest.raises(SystemExit) as exc:
            main(["new-game", name, "--dir", str(root), *extra])
        assert exc.value.code == 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(boardlab.games, "__path__", [*boardlab.games.__path__, str(root / "boardlab" / "games")])
        for gid, pkg, cls in ((GAME, PKG, CLASS), (FLAT, FLAT_PKG, "ScaffoldFlat")):
            mp.setitem(registry._extra, gid, None)  # remembered as absent, removed afterwards
            mp.setitem(registry._cache, gid, None)
            registry.register(gid, f"boardlab.games.{pkg}.game:{cls}Game")
        yield root
    for name in [m for m in sys.modules if m.startswith(("boardlab.games.scaffold_", "_scaffold_tests"))]:
        del sys.modules[name]


# -- what it writes -------------------------------------------------------------------------


def test_writes_every_piece_and_the_two_one_line_edits(repo):
    pkg = repo / "boardlab" / "games" / PKG
    assert sorted(p.name for p in pkg.iterdir()) == sorted(
        ["__init__.py", "agents.py", "board.py", "content.py", "data", "features.py", "game.py", "properties.py", "rules.py",
         "scene.py", "view.py"])
    assert json.loads((pkg / "data" / "track.json").read_text()) == {"length": 12, "steps": [1, 2, 3]}
    assert not (repo / "boardlab" / "games" / FLAT_PKG / "board.py").exists()
    flat_scene = (repo / "boardlab" / "games" / FLAT_PKG / "scene.py").read_text()
    assert "square_cell" not in flat_scene and '"boards": [],' in flat_scene
    rules = repo / "docs" / "rules"
    assert {p.name for p in rules.iterdir() if p.name.startswith(GAME + ".")} == {
        f"{GAME}.md", f"{GAME}.rulebook.txt", f"{GAME}.concordance.csv"}
    doc = (rules / f"{GAME}.md").read_text()
    assert "## Interpretation ledger" in doc and "No entries yet." in doc and "| 10.1 | rule |" in doc
    assert (repo / "tests" / PKG / "test_rules.py").is_file() and (repo / "tests" / PKG / "__init__.py").is_file()
    # one registry line each, in order, and the contract's containers
    reg = (repo / "boardlab" / "engine" / "registry.py").read_text()
    before = (ROOT / "boardlab" / "engine" / "registry.py").read_text()
    added = [line for line in reg.splitlines() if line not in before.splitlines()]
    assert added == [f'    "{FLAT}": "boardlab.games.{FLAT_PKG}.game:ScaffoldFlatGame",',
                     f'    "{GAME}": "boardlab.games.{PKG}.game:{CLASS}Game",']
    py = (repo / "pyproject.toml").read_text()
    assert [line for line in py.splitlines() if line not in (ROOT / "pyproject.toml").read_text().splitlines()] == [
        f'    "boardlab.games.{FLAT_PKG}",', f'    "boardlab.games.{PKG}",']
    assert '"(board) : content"' in py  # the board layer is optional: FLAT needs no stub
    readme = (repo / "README.md").read_text().splitlines()
    added = [line for line in readme if line not in (ROOT / "README.md").read_text().splitlines()]
    assert [line.split(" | ")[:3] for line in added] == [["| Scaffold Probe", f"`{GAME}`", "2"], ["| Scaffold Flat", f"`{FLAT}`", "3"]]
    from tests.test_readme_games import game_rows

    assert [row[1] for row in game_rows("\n".join(readme))][-2:] == [f"`{GAME}`", f"`{FLAT}`"]


@pytest.mark.parametrize("args, says", [
    (["new-game", "Bad Name"], "bad game name 'Bad Name'"),
    (["new-game", "9lives"], "bad game name '9lives'"),
    (["new-game", "my--race"], "bad game name 'my--race'"),
    (["new-game", "import"], "cannot be a Python package name"),
    (["new-game", "armies"], "a game 'armies' is already registered"),
    (["new-game", "fresh", "--players", "9"], "--players must be from 2 to 6"),
])
def test_refuses_bad_names_and_existing_games_with_one_line_and_writes_nothing(args, says, tmp_path, capsys):
    root = layout(tmp_path / "co")
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    code, out, err = run([*args, "--dir", root], capsys)
    assert code == 2 and says in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def test_refuses_an_existing_package_and_a_folder_that_is_not_a_checkout(tmp_path, capsys):
    root = layout(tmp_path / "co")
    (root / "tests" / "fresh").mkdir()
    code, _, err = run(["new-game", "fresh", "--dir", root], capsys)
    assert code == 2 and "tests/fresh already exists" in err
    code, _, err = run(["new-game", "fresh", "--dir", tmp_path / "nowhere"], capsys)
    assert code == 2 and "is not a boardlab checkout" in err and err.count("\n") == 1


# -- the generated game passes the shared checks ----------------------------------------------


def _generated_tests(repo: Path, pkg: str):
    """The generated test module's functions, each with every parametrization."""
    path = repo / "tests" / pkg / "test_rules.py"
    spec = importlib.util.spec_from_file_location(f"_scaffold_tests_{pkg}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if not name.startswith("test_") or fn.__module__ != module.__name__:
            continue
        grids = [m.args for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
        names = [n.strip() for args in grids for n in args[0].split(",")]
        for values in itertools.product(*(args[1] for args in grids)):
            yield name, fn, dict(zip(names, values))


@pytest.mark.parametrize("gid, pkg", [(GAME, PKG), (FLAT, FLAT_PKG)])
def test_its_own_generated_tests_pass(repo, gid, pkg):
    ran = [name for name, fn, kwargs in _generated_tests(repo, pkg) if fn(**kwargs) is None]
    assert len(ran) >= 3 + 6 + 1, ran  # three rule scenarios, 2 variants x 3 seeds, the heuristic


@pytest.mark.parametrize("gid", [GAME, FLAT])
def test_conformance_json_and_indistinguishability_at_every_decision(repo, gid):
    for variant in ("standard", "sprint"):
        game = make(gid, variant=variant)
        for seed in (4, 5):
            final = check_playout(gid, seed, variant=variant, every=1, leak_every=1)
            assert final.is_over() and not final.truncated
            check_apply_after_game_over(final)
            assert check_game(game, seed, steps=10_000) == []
        state, rng, leak_rng = game.new_state(9), Rng(9), Rng(10)
        while True:
            check_json_forms(state)
            check_no_leak(state, leak_rng)
            assert check_bad_actions(state) > 0
            if state.is_over():
                break
            state.apply(state.legal_actions()[rng.below(len(state.legal_actions()))])
        assert check_tampering(state) > 0


def test_scenes_draw_in_the_terminal_with_and_without_a_board(repo):
    for gid, boards in ((GAME, 1), (FLAT, 0)):
        game = make(gid)
        state = game.new_state(1)
        scene = game.scene(state.view(0), state.legal_actions())
        # a card per move in the acting seat's panel (the browser-board test clicks one), and on a board a square too
        assert len(scene["boards"]) == boards and len(scene["targets"]) == 3 + 3 * boards
        assert [c["id"] for c in scene["panels"][0]["cards"]] == ["step-1", "step-2", "step-3"]
        if boards:  # squares are named as the actions name them: "move 2 to c1"
            board = scene["boards"][0]
            assert board["col_labels"][:4] == ["a", "b", "c", "d"] and board["row_labels"] == ["1"]
            assert [state.describe(a) for a in state.legal_actions()] == ["move 1 to b1", "move 2 to c1", "move 3 to d1"]
            assert {t["label"] for t in scene["targets"]} == {"move 1 to b1", "move 2 to c1", "move 3 to d1"}
            long_game = make(gid, options={"length": 60})
            long_state = long_game.new_state(1)
            long = long_game.scene(long_state.view(0), long_state.legal_actions())["boards"][0]
            assert long["col_labels"][25:28] == ["z", "aa", "ab"] and long["col_labels"][-1] == "bi"
        else:
            assert [state.describe(a) for a in state.legal_actions()] == ["move 1 to square 1", "move 2 to square 2", "move 3 to square 3"]
            assert [t["label"] for t in scene["targets"]] == ["move 1 to square 1", "move 2 to square 2", "move 3 to square 3"]
        assert json.loads(json.dumps(scene)) == scene
        text = scene_text(scene, [state.describe(a) for a in state.legal_actions()])
        assert text.splitlines()[0] == game.name and "Round 1: Player 1 to move" in text


def test_its_concordance_is_complete_with_its_own_rulebook(repo):
    spec = importlib.util.spec_from_file_location("_scaffold_concordance", repo / "scripts" / "concordance.py")
    concordance = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = concordance
    try:
        spec.loader.exec_module(concordance)
        assert concordance.own_games() == [FLAT, GAME] and concordance.all_games()[-2:] == [FLAT, GAME]
        marks = concordance.marked_tests(repo / "tests")
        for gid in (GAME, FLAT):
            report, rows = concordance.check_game(gid, marks)
            assert report.problems == [] and report.sentences == 8 and report.rule_rows == 6 and report.untested == 0
            _, sentences = concordance.seed_sentences(gid)
            assert concordance.table_is_current(gid, concordance.render(gid, rows, sentences))
    finally:
        del sys.modules[spec.name]


def test_simulate_and_a_playtest_whose_verdict_counts_draws(repo, tmp_path, capsys):
    code, out, err = run(["simulate", GAME, "--games", "20", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["games"] == 20
    from boardlab.playtest.run import execute, plan_run

    # two heuristic runners on the six-square sprint both move 3 and share the lead: every game is drawn
    result = execute(plan_run(GAME, games=30, variant="sprint", agents=["heuristic"], seed=1), tmp_path / "sprint", jobs=1)
    assert result["verdict"][0] == "All 30 games were drawn: nobody won, so every seat scores an even share."
    assert not any("disadvantaged" in line or "favoured" in line for line in result["verdict"])
    assert (tmp_path / "sprint" / "report.html").is_file()
    # random runners draw often, and the verdict says how often
    result = execute(plan_run(GAME, games=60, agents=["random"], seed=2), tmp_path / "random", jobs=1)
    assert any("of games were drawn; a draw counts as an equal share" in line for line in result["verdict"]), result["verdict"]
    # compare: the always-drawn sprint against itself is no difference, said once (a draw is half a point)
    from boardlab.playtest.compare import compare_rows, comparison_verdict
    from boardlab.playtest.store import RunDir

    execute(plan_run(GAME, games=30, variant="sprint", agents=["heuristic"], seed=1), tmp_path / "sprint2", jobs=1)
    cmp = compare_rows(RunDir(tmp_path / "sprint").read_results(), RunDir(tmp_path / "sprint2").read_results())
    assert [r["rate_a"] for r in cmp["win_by_seat"]] == [0.5, 0.5] and not any(r["significant"] for r in cmp["win_by_seat"])
    lines = comparison_verdict("A", "B", cmp)
    assert lines[0].startswith("All 30 paired games were drawn with both A and B: every seat scored half a point")
    assert not any("cannot be ruled out" in line or "often" in line for line in lines), lines


def test_the_web_lobby_lists_it_and_the_terminal_plays_it_to_the_end(repo, tmp_path, cli):
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from boardlab.web.app import create_app

    with TestClient(create_app(data_dir=tmp_path / "web", bot_delay=0)) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
        assert games[GAME]["name"] == "Scaffold Probe" and games[FLAT]["max_players"] == 3
        r = client.post("/api/matches", json={"game": GAME, "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}]})
        assert r.status_code == 201 and r.json()["match"]["game"] == GAME, r.text
    save = tmp_path / "g.json"
    r = CliRunner().invoke(cli, ["play", GAME, "--seed", "4", "--save", str(save)], input="1\n" * 40, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "1. move 1 to b1" in r.stdout and "Game over" in r.stdout
    assert json.loads(save.read_text())["over"] is True


def test_players_read_no_internal_ids(repo):
    """tests/test_jargon.py's check, on both scaffolds: a move is named by the square it reaches, not by a bare number."""
    from tests.test_jargon import CHOICES, _configs, jargon, player_strings

    for gid in (GAME, FLAT):
        found = {}
        for variant, players, agent in _configs(gid):
            seen, names = player_strings(gid, variant, players, agent)
            for where, strings in seen.items():
                for s in strings:
                    found.update({f"{where}: {code!r}": s for code in jargon(s, names, where in CHOICES)})
        assert not found, (gid, found)
