"""``boardlab play`` for a player who has not read docs/ (issue 32, a new player's report): the
rules in the terminal, typed squares, a single choice, stale numbers and the info panel, each at
80x30 for every registered game."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from boardlab.cli.play import HELP_LINE, PlaySession
from boardlab.engine import make, registry
from boardlab.games import BUILTIN
from boardlab.web.rules import quick_start

from .test_terminal_screen import CLEAR, Screens, applied_label, save_in_tmp  # noqa: F401 (the autouse fixture)

GAMES = registry.game_ids()  # every registered game: a new one is covered without an edit here


def piped(game_id, answers, monkeypatch, tmp_path, seed=4, specs=None):
    buf = io.StringIO()
    out = Console(file=buf, width=80, force_terminal=False, color_system=None, highlight=False, soft_wrap=False)
    game = make(game_id)
    session = PlaySession(game, specs or ["human"] + ["random"] * (game.players - 1), seed, str(tmp_path / "g.json"), out)
    it = iter(answers)
    monkeypatch.setattr("builtins.input", lambda *_: next(it, "q"))
    session.run()
    return session, buf.getvalue()


def words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]{4,}", re.sub(r"\*\*|`|\*", "", text))


# -- 1. the rules (the quick start) at the start and on r ----------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_the_quick_start_is_the_first_screen_and_fits_80x30(game_id, monkeypatch):
    game = make(game_id)
    qs = quick_start(game)
    assert qs or game_id not in BUILTIN, "every built-in game has a quick start"
    s = Screens(game_id, 80)
    s.run(lambda st, scr: "q", monkeypatch, decisions=1)
    assert s.rules_screens, "no rules screen before the first decision"
    first = s.rules_screens[0]
    lines = first.rstrip("\n").split("\n")
    assert len(lines) <= 30 and max(len(line) for line in lines) <= 80, first
    assert "quick start" in lines[0].lower()
    flat = " ".join(first.split())
    for w in words(qs or game.description or ""):  # every word of the quick start is on the screen
        assert w in flat, (w, first)
    assert lines[-1].startswith("Press Enter to start")
    if game_id in BUILTIN:  # Enter goes on to the first decision
        assert s.screens and "your choice" in s.screens[0][0].split("\n")[-1]


@pytest.mark.parametrize("game_id", GAMES)
def test_r_shows_the_quick_start_again_within_80x30_and_the_choice_can_be_typed_below(game_id, monkeypatch):
    s = Screens(game_id, 80)
    answers = iter(["r", "q"])
    s.run(lambda st, scr: next(answers), monkeypatch, decisions=3)
    if len(s.screens) < 2:
        assert game_id not in BUILTIN and s.session.state.is_over()  # a toy game of single choices
        return
    again = s.screens[1][0]
    lines = again.rstrip("\n").split("\n")
    assert len(lines) <= 30 and max(len(line) for line in lines) <= 80, again
    assert "quick start" in lines[0].lower() and re.search(r"your choice \[1-\d+", lines[-1]), again


def test_piped_play_prints_the_quick_start_before_the_first_decision_and_on_r(monkeypatch, tmp_path):
    _, text = piped("dungeons-jewel", ["r", "q"], monkeypatch, tmp_path)
    assert CLEAR not in text
    first = text.index("The Dungeon's Jewel: quick start")
    assert first < text.index("your choice")
    assert text.count("The Dungeon's Jewel: quick start") == 2  # and again on r
    assert "Goal: beat the dragon at the centre" in text


def test_help_the_prompt_and_the_first_screen_mention_the_rules_key(monkeypatch):
    assert "'r' shows the rules" in HELP_LINE
    s = Screens("dungeons-jewel", 80)
    s.run(lambda st, scr: "q", monkeypatch, decisions=1)
    first = s.screens[0][0]
    assert first.split("\n")[-1].endswith("(r rules, h help): "), first


def test_a_tiny_terminal_pages_the_quick_start(monkeypatch):
    s = Screens("summoners-quest", 80, height=8)
    prompts: list[str] = []

    def answer(st, scr):
        prompts.append(scr.split("\n")[-1])
        return "q"

    s.run(answer, monkeypatch, decisions=1)
    assert prompts and prompts[0].startswith("(page 1 of "), prompts
    assert len(s.screens[0][0].rstrip("\n").split("\n")) <= 8


# -- 2. typing a listed square -------------------------------------------------------------------
@pytest.mark.parametrize("compact", [True, False])
@pytest.mark.parametrize("game_id", GAMES)
def test_typing_a_square_a_listed_choice_names_takes_it_or_lists_it(game_id, compact, monkeypatch, tmp_path):
    """At each decision a square named in a choice's label (as the board's axes name it) is typed:
    the choice is taken, or listed among the few that share the square; never 'Please type'."""
    rng = random.Random(3)
    game = make(game_id)
    typed: list[tuple[str, int, str]] = []  # (square, buffer position, label)
    boards = [False]  # some decision's scene drew named squares
    for seed in range(6, 16):  # games until 5 squares were typed (a short game plays several)
        buf = io.StringIO()
        out = Console(file=buf, width=80, height=30, force_terminal=compact, color_system=None, highlight=False, soft_wrap=False)
        session = PlaySession(game, ["human"] + ["random"] * (game.players - 1), seed, str(tmp_path / "g.json"), out)
        count = [0]
        first = len(typed)

        def fake_input(*_):
            text = buf.getvalue()
            last = text.rstrip("\n").split("\n")[-1]
            if last.startswith("Press Enter") or last.startswith("Take choice"):
                return "y" if last.startswith("Take") else ""
            if len(typed) > first and typed[-1][1] >= 0:
                sq, pos, label = typed[-1]
                assert "Please type a number" not in text[pos:], (sq, label, text[pos:])
                typed[-1] = (sq, -1, label)
            st = session.state
            count[0] += 1
            if count[0] > 60 or st.is_over():
                return "q"
            legal = st.legal_actions()
            labels = [st.describe(a) for a in legal]
            scene = game.scene(st.view(st.current_seat()), legal)
            from boardlab.render.compact import Squares

            sq = Squares.of(scene, labels)
            boards[0] = boards[0] or bool(sq.shown)
            named = [(w, lab) for lab in labels for w in re.findall(r"[A-Za-z0-9]+", lab) if w.lower() in sq.shown]
            if named and rng.random() < 0.8:
                w, lab = rng.choice(named)
                typed.append((w, len(text), lab))
                return w
            return str(rng.randrange(len(legal)) + 1)

        monkeypatch.setattr("builtins.input", fake_input)
        session.run()
        if len(typed) > first and typed[-1][1] >= 0:  # the game ended on a typed square
            sq, pos, label = typed[-1]
            assert "Please type a number" not in buf.getvalue()[pos:], (sq, label)
        if len(typed) >= 5 or not boards[0]:
            break
    if not boards[0]:
        pytest.skip(f"{game_id} draws no named squares (a board-less game): nothing to type")
    assert len(typed) >= 5 or game_id not in BUILTIN, "too few square-named choices typed"  # the tests' toys are tiny


# -- 3. a single choice is taken -----------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_single_choice_is_never_asked(game_id, monkeypatch):
    s = Screens(game_id, 80, seed=2)
    s.run(lambda st, scr: "y" if scr.split("\n")[-1].startswith("Take") else str(random.Random(len(s.screens)).randrange(len(st.legal_actions())) + 1),
          monkeypatch, decisions=60)
    asked = [scr for scr, d in s.screens if not d.over and re.search(r"your choice \[1-1\b", scr.split("\n")[-1])]
    assert not asked, asked[0]


def test_the_only_choice_is_taken_and_said_in_the_next_frame(monkeypatch, tmp_path):
    """Played on (every game in turn) until the human seat had a single choice: it was not asked,
    and the next screen said what was taken."""
    for game_id in GAMES:
        s = Screens(game_id, 80, seed=2)
        rng = random.Random(0)
        s.run(lambda st, scr: "y" if scr.split("\n")[-1].startswith("Take") else str(rng.randrange(len(st.legal_actions())) + 1),
              monkeypatch, decisions=60)
        said = [scr for scr, _ in s.screens if "Earlier, with only one choice, this was done for you: " in " ".join(scr.split())]
        if said:
            assert all(" ".join(scr.split()).count("with only one choice") == 1 for scr in said), said[0]
            return
    pytest.fail("no game reached a single choice for the human seat")


# -- 4. stale numbers ---------------------------------------------------------------------------
def test_a_turn_ending_number_that_changed_meaning_asks_first_and_n_keeps_the_turn(monkeypatch):
    """Blackfire: moves shift 'end the turn' to another number; typing its new number asks y/n
    (the frame shows what the number means now). n takes nothing; the same number typed again,
    now that the player has seen the list, is taken without asking."""
    s = Screens("blackfire", 80, seed=4)
    log: list[str] = []
    prev: list[list[str]] = []

    def answer(st, scr):
        if scr.split("\n")[-1].startswith("Take choice"):
            log.append("asked")
            return "n"
        labels = [st.describe(a) for a in st.legal_actions()]
        end = next((i for i, lab in enumerate(labels) if lab.startswith("end")), None)
        if log and log[-1] == "asked":
            log.append("again")
            return str(end + 1)
        if log and log[-1] == "again":
            return "q"
        if end is not None and prev and (end >= len(prev[-1]) or prev[-1][end] != labels[end]):
            log.append("typed")
            return str(end + 1)
        prev.append(labels)
        return str(next(i for i, lab in enumerate(labels) if not lab.startswith("end")) + 1)

    s.run(answer, monkeypatch, decisions=300)
    assert log == ["typed", "asked", "again"], log
    k = next(i for i, (scr, _) in enumerate(s.screens) if scr.split("\n")[-1].startswith("Take choice"))
    warned, d = s.screens[k]
    n = next(i for i, lab in enumerate(d.labels) if lab.startswith("end")) + 1
    assert f"{n} is now '{d.labels[n - 1]}'" in " ".join(warned.split()), warned
    assert len(warned.rstrip("\n").split("\n")) <= 30, warned
    after, d2 = s.screens[k + 1]
    assert d2.decisions == d.decisions and "not taken; choose again" in " ".join(after.split())
    assert applied_label(d2, s.session.saved.actions[d2.decisions]) == d.labels[n - 1]
    assert sum(scr.split("\n")[-1].startswith("Take choice") for scr, _ in s.screens) == 1


def test_a_number_that_means_the_same_choice_as_before_is_taken_without_asking(monkeypatch):
    from boardlab.cli.play import RISKY

    s = Screens("blackfire", 80, seed=4)
    s.session.last_labels[0] = ["x", "end the turn"]
    assert not s.session._stale(0, ["y", "end the turn"], 2)
    assert s.session._stale(0, ["end the turn", "y"], 1)
    assert not s.session._stale(0, ["move the archer to c4", "end the turn"], 1)
    for label in ("end the turn", "end turn", "discard Talaria", "set trap Pit on N2", "pass"):
        assert RISKY.match(label)
    assert "asks y/n" in HELP_LINE


def test_a_number_typed_after_viewing_i_at_this_decision_is_never_called_stale(monkeypatch):
    """The new player's report: 'i' at a decision, then the number of 'end the turn' on the list
    just seen asked 'The choices changed since your last screen'. Having viewed anything at this
    decision, the player has seen its list: the number is taken at once."""
    s = Screens("blackfire", 80, seed=4)
    log: list[str] = []
    prev: list[list[str]] = []

    def answer(st, scr):
        last = scr.split("\n")[-1]
        if last.startswith("Take choice"):
            log.append("asked")
            return "n"
        if last.startswith("("):  # a page of i: on to its last page
            return ""
        labels = [st.describe(a) for a in st.legal_actions()]
        end = next((i for i, lab in enumerate(labels) if lab.startswith("end")), None)
        if log and log[-1] == "viewed":
            log.append("typed")
            return str(end + 1)
        if log and log[-1] in ("typed", "asked"):
            return "q"
        if end is not None and prev and (end >= len(prev[-1]) or prev[-1][end] != labels[end]):
            log.append("viewed")
            return "i"
        prev.append(labels)
        return str(next(i for i, lab in enumerate(labels) if not lab.startswith("end")) + 1)

    s.run(answer, monkeypatch, decisions=300)
    assert log == ["viewed", "typed"], log
    assert not any("changed since" in " ".join(scr.split()) for scr, _ in s.screens)


def _log_pager(monkeypatch, then):
    """Blackfire in an 80x12 terminal: 12 random choices, then 'l'; ``then(prompt)`` answers the
    log's first page.  Returns the screens and the log's first page."""
    s = Screens("blackfire", 80, height=12, seed=4)
    rng = random.Random(0)
    first: list[str] = []

    def answer(st, scr):
        last = scr.split("\n")[-1]
        if last.startswith("Take"):
            return "y"
        if first and len(first) == 1:
            first.append(scr)
            return then(last)
        if len(s.screens) == 13:
            first.append("")
            return "l"
        if first:
            return "q"
        return str(rng.randrange(len(st.legal_actions())) + 1)

    s.run(answer, monkeypatch, decisions=40)
    assert len(first) == 2, "the log was not shown"
    return s, first[1]


def test_q_on_a_page_of_the_log_goes_back_to_the_decision_and_the_game_goes_on(monkeypatch):
    s, page = _log_pager(monkeypatch, lambda last: "q")
    prompt = page.split("\n")[-1]
    assert "q: back to choices" in prompt and "Enter: " in prompt, prompt
    k = next(i for i, (scr, _) in enumerate(s.screens) if scr == page)
    back, d = s.screens[k + 1]  # the decision again (same decision), not the end of the session
    assert "your choice" in back.split("\n")[-1] and d.decisions == s.screens[k][1].decisions, back
    assert "Game stopped" not in back


def test_the_log_opens_at_its_newest_page_and_enter_shows_older_events(monkeypatch):
    s, page = _log_pager(monkeypatch, lambda last: "q")
    events = [str(ev["text"]) for ev in s.session.state.events(0)]
    prompt = page.split("\n")[-1]
    assert "newest" in prompt and "older" in prompt, prompt
    assert events[-1][:60] in page and events[0][:60] not in page, page


# -- 5. every panel (i) fits ---------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_i_shows_every_panel_within_80x30_paged_if_needed(game_id, monkeypatch):
    """``i`` at the second screen and again at the twelfth (if the game lasts that long): every page
    of the info panel fits 80x30. The second screen makes a short game (a new one) checked too."""
    s = Screens(game_id, 80, seed=3)
    rng = random.Random(1)
    seen: list[str] = []
    opened = [False]  # an info panel is on screen: its pages are recorded, Enter goes back

    def answer(st, scr):
        last = scr.split("\n")[-1]
        if last.startswith("Take"):
            return "y"
        if last.startswith("(page "):
            seen.append(scr)
            return ""
        if opened[0]:  # the panel's only or last page, under the decision prompt
            seen.append(scr)
            opened[0] = False
            return ""
        if len(s.screens) in (2, 12):
            opened[0] = True
            return "i"
        return str(rng.randrange(len(st.legal_actions())) + 1)

    s.run(answer, monkeypatch, decisions=40)
    assert seen or game_id not in BUILTIN, "the info panel was never shown"  # the tests' toys may end at once
    for scr in seen:
        lines = scr.rstrip("\n").split("\n")
        assert len(lines) <= 30 and max(len(line) for line in lines) <= 80, scr


def test_piped_play_takes_a_single_choice_too_and_says_so(monkeypatch, tmp_path):
    _, text = piped("summoners-quest", ["1"] * 80, monkeypatch, tmp_path, seed=2)
    assert "[1-1]" not in text
    assert "Earlier, with only one choice, this was done for you: " in text


@pytest.mark.parametrize("game_id", GAMES)
def test_a_listed_line_copied_whole_or_a_label_typed_in_full_takes_that_choice(game_id, monkeypatch):
    """'2. move to f4' (the line as listed), 'move to f4' (the label) and '2.' are answers too."""
    s = Screens(game_id, 80, seed=5)
    rng = random.Random(4)
    typed: list[tuple[int, str]] = []  # (decision, label)

    def answer(st, scr):
        if scr.split("\n")[-1].startswith("Take"):
            return "y"
        labels = [st.describe(a) for a in st.legal_actions()]
        n = rng.randrange(len(labels)) + 1
        form = len(typed) % 3
        if form == 2 and labels.count(labels[n - 1]) > 1:
            form = 0
        typed.append((st.decisions, labels[n - 1]))
        return [f"{n}. {labels[n - 1]}", f"{n}.", labels[n - 1].upper()][form]

    s.run(answer, monkeypatch, decisions=12)
    checked = 0
    for decision, label in typed[:-1]:
        d = next(d for _, d in s.screens if d.decisions == decision)
        assert applied_label(d, s.session.saved.actions[decision]) == label
        checked += 1
    assert checked >= 3 or game_id not in BUILTIN
    assert not any("Please type a number" in scr for scr, _ in s.screens)


def test_piped_a_listed_line_copied_whole_is_taken(monkeypatch, tmp_path):
    session, text = piped("dungeons-jewel", ["2. move to a2", "q"], monkeypatch, tmp_path, seed=3)
    assert "Please type a number" not in text and "Player 1 moves to a2." in text
