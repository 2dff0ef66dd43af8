"""The games' boards in the terminal at 80 and 120 columns: axes named as the actions name squares."""

from __future__ import annotations

import re

import pytest

from boardlab.engine import make
from boardlab.games import BUILTIN
from boardlab.render.terminal import scene_text

GRID_GAMES = ["blackfire", "dungeons-jewel", "wizards-labyrinth", "armies"]
SQUARE = re.compile(r"\b([a-zA-Z])(\d{1,2})\b")


def first_grid(scene):
    return next(b for b in scene["boards"] if b["kind"] == "grid")


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("game_id", GRID_GAMES)
def test_axis_labels_are_drawn_and_name_squares_as_the_actions_do(game_id, width):
    game = make(game_id)
    state = game.new_state(1)
    while game_id == "armies" and state.view(0)["state"]["phase"] == "setup":  # to the first move
        state.apply(state.legal_actions()[0])
    seat = state.current_seat()
    scene = game.scene(state.view(seat), state.legal_actions())
    board = first_grid(scene)
    cols, rows = board["col_labels"], board["row_labels"]
    assert len(cols) == board["cols"] and len(rows) == board["rows"]
    lines = scene_text(scene, width=width).splitlines()
    top = next(i for i, line in enumerate(lines) if line.split() == cols)  # the column header, as labelled
    body = [line for line in lines[top + 1:] if line.strip()[:1] not in ("+", "")][: board["rows"]]
    assert [line.split()[0] for line in body] == rows
    # a legal action's square, as the action names it, is the square its click lands on
    checked = 0
    for t in scene["targets"]:
        board_id, _, xy = t["clicks"][-1].partition(":")
        found = SQUARE.findall(t["label"])  # the last square named is where the last click lands
        if board_id != "main" or "," not in xy or not found or found[-1][0] not in cols:
            continue
        x, y = map(int, xy.split(","))
        assert (cols[x], rows[y]) == found[-1], t
        checked += 1
    if game_id != "wizards-labyrinth":  # its first actions name towers by number
        assert checked, scene["targets"][:3]


@pytest.mark.parametrize("moves", [0, 30])
@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("game_id", GRID_GAMES)
def test_no_piece_is_cut_off_without_a_legend_entry(game_id, width, moves):
    """Every piece's text is whole on the board, or in a legend line keyed by its square; so is
    every cell label that pieces cover (a room's value, START)."""
    import random

    from boardlab.render.terminal import _item_text

    game = make(game_id)
    state = game.new_state(1)
    rng = random.Random(1)
    for _ in range(moves):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_seat() or 0
    scene = game.scene(state.view(seat), state.legal_actions() if state.current_seat() == seat else ())
    board = first_grid(scene)
    lines = scene_text(scene, width=width).splitlines()
    covered = {(it["x"], it["y"]) for it in board["items"]}
    for c in board.get("cells") or ():
        if c.get("label") and not c.get("blocked") and (c["x"], c["y"]) in covered:
            square = board["col_labels"][c["x"]] + board["row_labels"][c["y"]]
            assert f"  {square}: {c['label']} " in "\n".join(lines), (square, c["label"])
    grid = [line for line in lines if line[:4].strip()[:1].isdigit() and "|" in line]
    keyed = [line for line in lines if re.match(r"^  [A-Za-z]+\d+: ", line)]
    where = "\n".join(grid + keyed)
    assert board["items"]
    for it in board["items"]:
        square = board["col_labels"][it["x"]] + board["row_labels"][it["y"]]
        text = _item_text(it)
        assert text in where, (text, square)


def test_one_naming_of_seats_player_n_by_default():
    from boardlab.engine.scene import generic_scene, status_line

    assert status_line({"acting": 0}) == "Player 1 to act" == make("toy").seat_names()[0] + " to act"
    assert generic_scene({"acting": 1, "state": {}})["status"] == "Player 2 to act"
    assert status_line({"over": True, "results": {"winners": [1], "reason": "x"}}) == "Game over: Player 2 won (x)"


def test_blackfire_sides_differ_without_colour():
    """Issue 20: green and red pieces shared S/A/W and differed by colour only."""
    game = make("blackfire")
    state = game.new_state(1)
    while state.view(0)["state"]["phase"] == "place":
        state.apply(state.legal_actions()[0])
    seat = state.current_seat()
    scene = game.scene(state.view(seat), state.legal_actions())
    units = [it for it in first_grid(scene)["items"] if it["id"].startswith("u")]
    green = {it["text"] for it in units if "green" in it["title"]}
    red = {it["text"] for it in units if "red" in it["title"]}
    assert green == {"S", "A", "W"} and red == {"s", "a", "w"}
    text = scene_text(scene, width=80)  # no colour at all
    assert re.search(r"^  S(\(Orb\))?  green sorcerer", text, re.M) and re.search(r"^  s  red sorcerer", text, re.M)


def test_summoners_quest_summons_and_traps_name_their_owner():
    from tests.summoners_quest.helpers import fresh

    st = fresh(2)
    view = st.view(0)
    view["state"]["summons"] = [
        {"uid": u, "card": "chimera", "name": "Chimera", "owner": o, "space": 3, "attack": 4, "life": 5,
         "damage": 0, "status": None, "status_turns": 0, "equipment": []} for u, o in ((1, 0), (2, 1))]
    view["state"]["traps"] = [{"space": 5, "owner": 0, "card": None}, {"space": 6, "owner": 1, "card": None}]
    items = st.game.scene(view, ())["boards"][0]["items"]
    texts = {it["id"]: it["text"] for it in items}
    assert texts["S1"] != texts["S2"] and texts["S1"].endswith("1") and texts["S2"].endswith("2")
    assert texts["trap5"] != texts["trap6"]


def test_prompts_say_choose_or_pick_never_click():
    import importlib

    for target in BUILTIN.values():  # every built-in game's scene module
        mod = target.split(":")[0].rsplit(".", 1)[0] + ".scene"
        prompts = getattr(importlib.import_module(mod), "PROMPTS", {})
        for text in prompts.values():
            assert "click" not in text.lower(), (mod, text)


ALL_GAMES = sorted(BUILTIN)  # every built-in game


def _words(text: str) -> set[str]:
    return set(re.sub(r"[│╭╮╰╯─|]", " ", text).split())


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_panels_keep_every_value_and_card_at_80_and_120_columns(game_id, width):
    """Issue 20: at 80 columns Blackfire's "Open exit" and "Red start" lost their numbers and the
    token rows showed only "card".  Every word of every panel value, card name and card text is drawn."""
    import random

    game = make(game_id)
    state = game.new_state(2)
    rng = random.Random(2)
    for _ in range(20):  # into the game proper (Blackfire's exit and start are rolled)
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_seat() or 0
    scene = game.scene(state.view(seat), state.legal_actions() if state.current_seat() == seat else ())
    text = scene_text(scene, width=width)
    assert max(len(line) for line in text.splitlines()) <= width
    words = _words(text)
    missing = []
    for p in scene["panels"]:
        for row in p.get("rows") or ():
            missing += [(p.get("title"), row[0], w) for x in row[1:] for w in str(x).split() if w not in words]
        for c in p.get("cards") or ():
            if not c.get("face_down"):
                missing += [(p.get("title"), c.get("name"), w) for w in f"{c.get('name', '')} {c.get('text', '')}".split()
                            if w not in words and w + ":" not in words]
    assert not missing, missing[:10]


@pytest.mark.parametrize("width", [80, 120])
def test_the_labyrinths_mana_wheel_reads_in_words(width):
    """Issue 20: the wheel and its legend "m2 2 mana(0)" were cryptic."""
    game = make("wizards-labyrinth")
    state = game.new_state(1)
    text = scene_text(game.scene(state.view(0), state.legal_actions()), width=width)
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("Mana wheel: 2 of 8, 0 left to spend this turn"))
    assert lines[i + 1].split() == ["0", "1", "[2]", "3", "4", "5", "6", "7", "8"]
    assert "mana(" not in text and not re.search(r"\bm2\b", text)
