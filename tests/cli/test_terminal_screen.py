"""``boardlab play`` in an 80x30 (and 100x30) terminal: at every decision the board, the prompt
and the choices are on the screen at once (issue 32, item 5), and squares can be typed by name.

The session writes to a rich Console that says it is a terminal of a fixed size; the screen at a
decision is everything written since the last clear-screen, up to and including the input line.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from boardlab.cli.play import PlaySession
from boardlab.engine import make
from boardlab.games import BUILTIN
from boardlab.render.compact import Squares, compact_frame, fold_choices

GAMES = sorted(BUILTIN)  # every built-in game: a new one is covered without an edit here
CLEAR = "\x1b[2J\x1b[H"
SAVE = [""]


@pytest.fixture(autouse=True)
def save_in_tmp(tmp_path):
    SAVE[0] = str(tmp_path / "game.json")


class Decision:
    """What a decision offered (the state itself moves on): its scene, labels and seat."""

    def __init__(self, state, game):
        self.over = state.is_over()
        self.decisions = state.decisions
        self.seat = state.current_seat()
        self.legal = [] if self.over else state.legal_actions()
        self.labels = [state.describe(a) for a in self.legal]
        self.scene = game.scene(state.view(self.seat), self.legal)


class Screens:
    """Drives a PlaySession with scripted answers and keeps the screen shown at each decision."""

    def __init__(self, game_id, width, height=30, seed=4, players=None, bots="random", save=None):
        self.game = make(game_id, players=players)
        self.buf = io.StringIO()
        self.out = Console(file=self.buf, width=width, height=height, force_terminal=True, color_system=None,
                           highlight=False, soft_wrap=False)
        specs = ["human"] + [bots] * (self.game.players - 1)
        self.session = PlaySession(self.game, specs, seed, str(save or SAVE[0]), self.out)
        self.screens: list[tuple[str, Decision]] = []  # (screen text, what was offered)
        self.rules_screens: list[str] = []

    def screen(self) -> str:
        text = self.buf.getvalue()
        return text[text.rfind(CLEAR) + len(CLEAR):] if CLEAR in text else text

    def run(self, answer, monkeypatch, decisions=30):
        """``answer(state, screen) -> str`` gives each answer; stops (q) after ``decisions`` answers."""
        count = [0]

        def fake_input(*_):
            state = self.session.state
            screen = self.screen()
            if screen.rstrip("\n").split("\n")[-1].startswith("Press Enter to start"):
                self.rules_screens.append(screen)  # the quick start before the first decision
                return ""
            self.screens.append((screen, Decision(state, self.game)))
            count[0] += 1
            if count[0] > decisions or state.is_over():
                return "q"
            return answer(state, screen)

        monkeypatch.setattr("builtins.input", fake_input)
        self.session.run()


def applied_label(d: Decision, saved_action) -> str:
    """The label of the action of decision ``d`` that was saved as ``saved_action``."""
    return d.labels[[list(a) for a in d.legal].index(saved_action)]


def board_row_shown(scene, lines) -> bool:
    if not scene.get("boards"):
        return True  # a game without a board (boards: []) has no board row to show
    for board in scene.get("boards") or ():
        if board.get("kind") == "grid":
            labels = [str(r) for r in board.get("row_labels") or range(board["rows"])]
            pattern = re.compile(r"^ *(" + "|".join(map(re.escape, labels)) + r") \|.*\|$")
            if any(pattern.match(line) for line in lines):
                return True
        elif board.get("kind") == "nodes" and not board.get("track"):
            names = {str(n.get("label") or n["id"]) for n in board["nodes"]}
            if any(sum(w in names for w in line.split()) >= 3 for line in lines):
                return True
    return False


def check_screen(screen: str, d: Decision, width: int, height: int) -> None:
    lines = screen.split("\n")
    assert len(lines) <= height, f"{len(lines)} rows:\n{screen}"
    assert max(len(line) for line in lines) <= width, screen
    legal, scene = d.legal, d.scene
    assert board_row_shown(scene, lines), screen
    flat = " ".join(screen.split())
    prompt = " ".join(str(scene.get("prompt") or "").split())
    assert prompt[:40] in flat, (prompt, screen)
    assert re.search(r"your choice \[1-\d+( or a square)?\] \(r rules, h help\): $", lines[-1]), lines[-1]
    # the choices: every action's number is shown (alone or in a folded range), unless paged
    after = "\n".join(lines[next(i for i, line in enumerate(lines) if prompt[:20] in " ".join(line.split())) + 1:])
    shown: set[int] = set()
    for m in re.finditer(r"(?:^|  )(\d+)\. ", after, re.M):
        shown.add(int(m.group(1)))
    for m in re.finditer(r"(?:^|  )(\d+)-(\d+) ", after, re.M):
        shown.update(range(int(m.group(1)), int(m.group(2)) + 1))
    loose = sum(int(m.group(1)) for m in re.finditer(r"^\[(\d+)\] ", after, re.M))
    if "(page " in after:
        assert shown or loose, screen
    else:
        assert len(shown) + loose == len(legal) and shown <= set(range(1, len(legal) + 1)), (sorted(shown), len(legal), screen)


def random_answers(seed):
    rng = random.Random(seed)

    def answer(state, screen):
        legal = state.legal_actions()
        if re.search(r"^Take choice \d+\? y/n: $", screen.split("\n")[-1]):
            return "y"  # a turn-ending choice whose number changed meaning is confirmed
        roll = rng.random()
        if roll < 0.1:
            return "zz"  # not a number or a square: the frame is redrawn with a one-line message
        return str(rng.randrange(len(legal)) + 1)

    return answer


@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_decision_fits_the_terminal_with_board_prompt_and_choices(game_id, width, monkeypatch):
    s = Screens(game_id, width)
    s.run(random_answers(1), monkeypatch, decisions=25)
    decisions = [(scr, d) for scr, d in s.screens if not d.over and "your choice" in scr.split("\n")[-1]]
    assert len(decisions) >= 20 or s.session.state.is_over()  # a short game may end sooner
    for screen, d in decisions:
        check_screen(screen, d, width, 30)
    assert CLEAR in s.buf.getvalue()  # each decision starts on a clean screen


@pytest.mark.parametrize("game_id", ["armies", "dungeons-jewel"])
def test_a_board_row_is_on_screen_later_in_the_game_too(game_id, monkeypatch):
    """The issue counted 0 of 70 (Dungeon's Jewel) and 0 of 62 (Armies) decisions with a board row
    on screen at 80 columns; later decisions carry longer logs and hands."""
    s = Screens(game_id, 80, seed=11)
    s.run(random_answers(2), monkeypatch, decisions=70)
    decisions = [(scr, d) for scr, d in s.screens if not d.over and "your choice" in scr.split("\n")[-1]]
    assert len(decisions) >= 40
    for screen, d in decisions:
        check_screen(screen, d, 80, 30)


def test_the_first_blackfire_placement_folds_181_squares_into_one_line(monkeypatch):
    s = Screens("blackfire", 80)
    answers = iter(["zz", "q"])
    s.run(lambda st, scr: next(answers), monkeypatch)
    screen, d = s.screens[0]
    assert len(d.legal) > 180
    assert re.search(r"^1-\d{3} place a face-down token on: b1 c1 ", screen, re.M), screen
    assert "You play Player 1; bots: Player 2: random. h for help" in screen  # who plays what
    again = s.screens[1][0]  # redrawn after a bad answer: the intro is said once
    assert "You play" not in again and "Please type a number from 1 to 181, or a square such as b1" in again
    assert len(screen.split("\n")) <= 30


def test_typing_a_square_takes_the_one_action_that_lands_there(monkeypatch):
    s = Screens("blackfire", 80)
    answers = iter(["c4", "q"])
    s.run(lambda st, scr: next(answers), monkeypatch)
    assert len(s.session.saved.actions) == 1
    assert applied_label(s.screens[0][1], s.session.saved.actions[0]) == "place a face-down token on c4"
    assert "c4" in s.screens[1][0] and "You place a face-down token on c4." in s.screens[1][0]


def test_typing_a_square_several_actions_share_shows_just_those(monkeypatch):
    """The Wizard places a blank or a level 2 monster on B1: typing B1 lists the two."""
    rng = random.Random(0)
    s = Screens("wizards-labyrinth", 80)
    answers: list[str] = []

    def answer(state, screen):
        labels = [state.describe(a) for a in state.legal_actions()]
        if any(lab.startswith("place a blank on ") for lab in labels) and not answers:
            square = labels[0].rsplit(" ", 1)[1]
            answers.append(square)
            return square.lower()  # names are not case-sensitive
        if answers and len(answers) == 1:
            answers.append("shown")
            return "q"
        return str(rng.randrange(len(labels)) + 1)

    s.run(answer, monkeypatch, decisions=40)
    assert answers, "no token placement reached"
    square = answers[0]
    screen, d = s.screens[-1]
    labels = d.labels
    sharing = [i + 1 for i, lab in enumerate(labels) if lab.endswith(f" on {square}")]
    assert len(sharing) >= 2
    assert f"{square.lower()}: {len(sharing)} choices; type one's number" in screen
    listed = [int(n) for n in re.findall(r"(?:^|  )(\d+)\. ", screen.split(str(d.scene["prompt"]))[-1], re.M)]
    assert sorted(listed) == sharing, screen  # just those, with their own numbers


def test_a_square_no_action_lands_on_says_so_in_one_line(monkeypatch):
    s = Screens("dungeons-jewel", 80, seed=4)
    answers = iter(["d4", "q"])
    s.run(lambda st, scr: next(answers), monkeypatch)
    screen = s.screens[1][0]
    # the game's reason (State.why_not), then the squares that can be chosen
    assert re.search(r"^d4: not adjacent \(one room up, down, left or right\); you can choose (\w+ ?)+$", screen, re.M), screen
    assert len(screen.split("\n")) <= 30
    assert s.screens[1][1].decisions == s.screens[0][1].decisions  # nothing was played


def test_a_piece_then_its_square_picks_a_move(monkeypatch):
    """Armies: "g1 f3" is the knight's move; "g1" alone lists what starts or lands there: the
    knight's moves and the cards that can be played on it."""
    s = Screens("armies", 80, seed=2)
    answers: list[str] = []

    def answer(state, screen):
        labels = [state.describe(a) for a in state.legal_actions()]
        if "knight g1 to f3" in labels:
            if not answers:
                answers.append("g1")
                return "g1"
            answers.append("g1 f3")
            return "g1 f3"
        if state.view(0)["state"]["phase"] == "setup" or len(labels) == 1:
            return "1"
        return "q"

    s.run(answer, monkeypatch, decisions=10)
    assert answers == ["g1", "g1 f3"]
    shown, d = s.screens[-2]  # after "g1"
    on_g1 = [i + 1 for i, lab in enumerate(d.labels) if re.search(r"\bg1\b", lab)]
    assert "knight g1 to f3" in shown and "knight g1 to h3" in shown and len(on_g1) >= 3
    assert f"g1: {len(on_g1)} choices; type one's number" in shown
    assert applied_label(s.screens[-2][1], s.session.saved.actions[-1]) == "knight g1 to f3"


def test_without_a_terminal_the_scrolling_log_is_kept(monkeypatch):
    """Pipes and logs get today's output: every frame in full, numbered actions, no clear codes."""
    buf = io.StringIO()
    out = Console(file=buf, width=80, force_terminal=False, color_system=None, highlight=False, soft_wrap=False)
    game = make("blackfire")
    session = PlaySession(game, ["human", "random"], 4, SAVE[0], out)
    answers = iter(["c4", "181", "q"])
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    session.run()
    text = buf.getvalue()
    assert CLEAR not in text and "\x1b" not in text
    assert "  +---+---+" in text  # the full board with its boundary lines
    assert "181. place a face-down token on" in text  # every choice, numbered
    assert "c4 is not a legal target now" not in text


# -- the pieces -----------------------------------------------------------------------------------
def scene_of(game_id, seed=2, moves=0):
    game = make(game_id)
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    return game.scene(state.view(state.current_seat()), legal), [state.describe(a) for a in legal]


def test_squares_are_named_as_the_axes_and_nodes_name_them():
    scene, labels = scene_of("summoners-quest")
    sq = Squares.of(scene, labels)
    assert sq.parse("NT") == ["nt"] and sq.parse("wt") == ["wt"] and sq.parse("zz") is None
    assert [labels[a] for a in sq.match(["wt"])] == ["start at West temple (WT)"]
    scene, labels = scene_of("wizards-labyrinth")
    sq = Squares.of(scene, labels)
    assert [labels[a] for a in sq.match(sq.parse("c3"))] == ["raise the tower at C3"]
    assert sq.match(sq.parse("a1")) == []


def test_fold_choices_keeps_every_choice_when_they_fit_and_folds_by_piece_when_not():
    scene, labels = scene_of("armies", moves=2)
    sq = Squares.of(scene, labels)
    full = fold_choices(labels, sq, 80, 60)
    assert not full.folded and len(full.lines) == len(labels)
    tight = fold_choices(labels, sq, 80, 16)
    text = "\n".join(line.plain for line in tight.lines)
    assert tight.folded and len(tight.lines) <= 16 and tight.pages == 1
    assert re.search(r"^2-17 play Teachings of \w+ on: a1 a2 b1 b2", text, re.M), text
    paged = fold_choices(labels, sq, 80, 4)
    assert paged.pages > 1 and len(paged.lines) == 4 and "m shows more" in paged.lines[-1].plain
    seen: set[int] = set()  # the pages together show every choice
    for page in range(paged.pages):
        text = "\n".join(line.plain for line in fold_choices(labels, sq, 80, 4, page=page).lines)
        seen.update(int(n) for n in re.findall(r"(?:^|  )(\d+)\. ", text, re.M))
        for a, b in re.findall(r"(?:^|  )(\d+)-(\d+) ", text, re.M):
            seen.update(range(int(a), int(b) + 1))
    assert seen == set(range(1, len(labels) + 1))


@pytest.mark.parametrize("height", [16, 24, 30, 50])
def test_the_frame_never_exceeds_the_rows_it_is_given(height):
    for game_id in GAMES:
        scene, labels = scene_of(game_id, moves=6)
        frame = compact_frame(scene, labels, width=80, height=height, events=["x" * 200] * 30, message="m")
        assert len(frame.lines) <= height - 1 and all(line.cell_len <= 80 for line in frame.lines)


def test_why_not_says_when_a_choice_is_not_made_on_the_board_or_a_square_cannot_be_entered():
    game = make("dungeons-jewel")
    state = game.new_state(3)
    rng = random.Random(3)
    while True:  # to a decision no square names ("place the token face down or face up", "roll")
        legal = state.legal_actions()
        labels = [state.describe(a) for a in legal]
        scene = game.scene(state.view(state.current_seat()), legal)
        sq = Squares.of(scene, labels)
        if not sq.any_named():
            break
        state.apply(rng.choice(legal))
    assert sq.why_not("a1", ["a1"], scene) == "a1 is not a legal target now: this choice is not made on the board (type a number)"
    scene, labels = scene_of("blackfire")
    sq = Squares.of(scene, labels)
    assert sq.why_not("d1", ["d1"], scene) == "d1 is not a legal target now: nothing can enter it"  # a ### square


@pytest.mark.parametrize("game_id", GAMES)
def test_the_end_of_the_game_fits_on_one_screen_with_the_result(game_id):
    s = Screens(game_id, 80)
    state = s.session.state
    rng = random.Random(5)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    s.session._show_end()
    screen = s.screen()
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= 28 and max(len(line) for line in lines) <= 80, screen  # the saved path follows
    assert "Game over" in lines[0]
    view = state.view(0)
    scene = s.game.scene(view, ())
    assert board_row_shown(scene, lines), screen
    from boardlab.engine.scene import status_line

    result = status_line(view, s.game.seat_names())  # "Game over: Player 2 won (...)"
    assert result[:40] in screen or str(scene.get("status"))[:40] in screen, (result, screen)


def test_m_pages_through_choices_that_do_not_fit_a_short_terminal(monkeypatch):
    s = Screens("armies", 80, height=18, seed=2)
    said: list[str] = []

    def answer(state, screen):
        if "(page 1 of " in screen and not said:
            said.append("m")
            return "m"
        return "q" if said else "1"

    s.run(answer, monkeypatch, decisions=12)
    assert said, "no paged decision"
    first, second = s.screens[-2][0], s.screens[-1][0]
    pages = int(re.search(r"\(page 1 of (\d+)", first).group(1))
    assert pages >= 2 and f"(page 2 of {pages}: m shows more" in second
    for screen in (first, second):
        assert len(screen.split("\n")) <= 18 and board_row_shown(s.screens[-1][1].scene, screen.split("\n"))
    assert set(re.findall(r"^(\d+)[.-]", first, re.M)).isdisjoint(re.findall(r"^(\d+)[.-]", second, re.M))


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(cols=st.integers(1, 20), rows=st.integers(1, 20), n=st.integers(0, 250), width=st.integers(30, 130),
       height=st.integers(8, 45), events=st.integers(0, 20), seed=st.integers(0, 99))
@settings(max_examples=40, deadline=None)
def test_any_grid_decision_fits_any_terminal(cols, rows, n, width, height, events, seed):
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    board = {"id": "main", "kind": "grid", "cols": cols, "rows": rows, "col_labels": list(letters[:cols]),
             "row_labels": [str(r + 1) for r in range(rows)],
             "items": [{"id": f"p{i}", "x": rng.randrange(cols), "y": rng.randrange(rows), "text": f"P{i}",
                        "badge": rng.choice([None, "2", "long badge"]), "title": f"piece {i}"} for i in range(rng.randrange(12))],
             "walls": [{"x": rng.randrange(cols), "y": rng.randrange(rows), "side": rng.choice("NESW")} for _ in range(8)]}
    labels, targets = [], []
    for a in range(n):
        x, y = rng.randrange(cols), rng.randrange(rows)
        kind = rng.choice(["place a token on", "piece p1 to", "rest"])
        labels.append(f"{kind} {letters[x]}{y + 1}" if kind != "rest" else f"rest {a}")
        if kind != "rest":
            clicks = (["item:p1"] if kind.startswith("piece") else []) + [f"main:{x},{y}"]
            targets.append({"action": a, "clicks": clicks, "label": labels[-1]})
    scene = {"title": "T" * rng.randrange(1, 90), "status": "S", "prompt": "P " * rng.randrange(1, 60),
             "boards": [board], "targets": targets,
             "panels": [{"title": "Me", "seat": 0, "rows": [["k", "v" * rng.randrange(1, 200)]]}]}
    frame = compact_frame(scene, labels, width=width, height=height, events=[f"e{i}" for i in range(events)],
                          message="x " * rng.randrange(0, 80), seat=0)
    assert len(frame.lines) <= height - 1 and all(line.cell_len <= width for line in frame.lines)
    text = frame.text()
    assert re.search(r"^ *\d+ \|", text, re.M), text  # a board row
    assert re.search(r"^P( P)*", text, re.M), text  # the prompt
    if n:
        assert re.search(r"^(\d+\.|\d+-\d+|\[\d+\]) ", text, re.M), text  # a choice
