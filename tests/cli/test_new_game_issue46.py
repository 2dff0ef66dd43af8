"""Issue 46, section 4: ``boardlab new-game`` refuses an id the examples or the tests already use, prints the
exact commands that check the new game fully, declares rule properties, and a board-less game's hand is
packed in the terminal rather than one card a line."""

from __future__ import annotations

import re

from boardlab.cli.newgame import next_steps, taken_by
from boardlab.engine import make
from boardlab.engine.properties import properties_of
from boardlab.render.terminal import render_panel, scene_text

from .test_new_game import FLAT, GAME, layout, repo, run  # noqa: F401 (the module's scaffolds)


def test_an_id_the_worked_example_or_a_test_game_uses_is_refused_with_one_line(tmp_path, capsys):
    root = layout(tmp_path / "co")
    (root / "examples" / "goofspiel").mkdir(parents=True)
    (root / "tests" / "games.py").write_text('class DuelProbe:\n    id = "duel-probe"\n', encoding="utf-8")
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    for name, says in (("goofspiel", "the id 'goofspiel' is taken by examples/goofspiel/"),
                       ("duel-probe", "the id 'duel-probe' is taken by a game in tests/games.py"),
                       ("duel_probe", "the id 'duel-probe' is taken by a game in tests/games.py")):
        code, _out, err = run(["new-game", name, "--dir", root], capsys)
        assert code == 2 and says in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert taken_by(root, "duel", "duel") is None and taken_by(root, "fresh-race", "fresh_race") is None


def test_the_next_hint_lists_every_check_the_indistinguishability_test_included(repo, capsys):  # noqa: F811
    lines = next_steps("my-race", "my_race")
    text = "\n".join(lines)
    for needed in ("python -m pytest tests/my_race", "python -m pytest tests -k my-race", "tests/test_concordance.py",
                   "tests/test_worked_example.py", "lint-imports --no-cache", "python scripts/concordance.py",
                   "python -m boardlab play my-race", "bash scripts/test.sh"):
        assert needed in text, needed
    # each listed test file exists in this checkout
    from .test_new_game import ROOT

    for path in set(re.findall(r"tests/[\w/]+\.py", text)):
        assert (ROOT / path).is_file(), path


def test_both_scaffolds_declare_rule_properties_that_name_concordance_rows(repo):  # noqa: F811
    for gid in (GAME, FLAT):
        props = properties_of(make(gid))
        assert props and len(props) >= 3 and props.has_step
        rows = set(props.rows())
        assert {"5.1", "7.1", "8.1", "9.1", "10.1"} <= rows, rows


def test_a_hand_of_name_only_cards_is_packed_across_the_panel():
    panel = {"title": "Player 1", "rows": [["Points", "0"]], "cards": [{"id": f"c{n}", "name": str(n)} for n in range(1, 14)]}
    from rich.console import Console

    console = Console(width=80, force_terminal=False, color_system=None)
    with console.capture() as cap:
        console.print(render_panel(panel, 40))
    lines = cap.get().splitlines()
    assert len(lines) == 5, lines  # border, Points, two lines of 13 cards, border
    assert "1  2  3" in lines[2] and "13" in lines[3]
    with_text = {**panel, "cards": [{"id": "a", "name": "Axe", "text": "hits hard"}, {"id": "b", "name": "Bow"}]}
    with console.capture() as cap:
        console.print(render_panel(with_text, 40))
    assert "Axe: hits hard" in cap.get() and "Bow" in cap.get()


def test_the_board_less_scaffold_in_the_terminal_is_not_one_card_a_line(repo):  # noqa: F811
    game = make(FLAT)
    state = game.new_state(1)
    text = scene_text(game.scene(state.view(0), state.legal_actions()), [state.describe(a) for a in state.legal_actions()])
    assert re.search(r"Move 1  Move 2  Move 3", text), text


def test_the_shared_tests_by_id_select_every_test_that_takes_its_cases_from_the_games():
    """The hint's ``pytest tests -k <id>`` picks every shared test parametrized by the game (the done-when run found
    tests/engine/test_why_not.py, absent from the hint's former list of files, failing the board-less scaffold)."""
    from tests.engine import test_why_not

    line = next(line for line in next_steps("my-race", "my_race") if " -k " in line)
    assert re.search(r"python -m pytest tests -k my-race(\s|$)", line), line
    assert "game_id" in test_why_not.test_reasons_come_from_the_view_and_only_for_what_cannot_be_used.pytestmark[0].args[0]


def test_both_scaffolds_pass_the_why_not_check_with_enough_clickables(repo):  # noqa: F811
    """The board-less scaffold's only clickables are the acting seat's three cards and its game ends in about
    a dozen decisions: the why-not test checked 12 clickables (not the 100 it asks) in the done-when run. The check
    now plays more seeds, at every decision, until it has."""
    from tests.engine.test_why_not import CHECKS, check_why_not

    for gid in (GAME, FLAT):
        assert check_why_not(make(gid)) > CHECKS
