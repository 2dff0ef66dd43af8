"""``boardlab play``: play a game in the terminal against bots or hot-seat.

Each human seat sees only its own view: the board is drawn from the scene of
that seat's view, with the events since its last turn (redacted for it).
When several humans share the terminal, a hand-over screen comes between
their turns.  The game's quick start comes first and again on ``r``; a seat's only choice is
taken for it; a turn-ending choice picked by a number that changed meaning is confirmed.  The game is saved (config, seed, agents, actions) for
``boardlab replay``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import click
import platformdirs
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from boardlab.agents import Decision, make_agent
from boardlab.engine.errors import BoardlabError
from boardlab.engine.game import Game
from boardlab.agents.runner import agent_seed
from boardlab.engine.scene import status_line
from boardlab.engine.state import State
from boardlab.render.compact import Squares, compact_frame, pages, quick_start_lines, text_lines
from boardlab.render.terminal import layout_panels, render_actions, render_scene
from boardlab.web.rules import quick_start

from .common import HUMAN, PLAYERS, SEED, check_output_file, console, make_game, parse_seats
from .savefile import SavedGame

HELP_LINE = ("Type the number of an action (or its line as listed, or its whole label), or a square (c4; b1 c3 "
             "for a piece and where it goes) to take the action that lands there; 'r' shows the rules (the game's quick start), 'a' lists every choice, "
             "'m' shows the next page of choices, 'b' the whole board, 'i' every panel, 'l' your whole log (newest first); "
             "Enter redraws, 'q' saves and quits ('q' on a page of i, l, r... goes back to your choices). When you have only one choice it is taken for you, and the "
             "next screen says so. Ending your turn, passing, discarding or setting a trap by its number asks "
             "y/n first if it is your first answer at this choice and that number meant another choice on your "
             "previous screen (the list changed since: a bot moved, or this is a follow-up choice); a square never asks.")
#: Choices that end a turn or give something up: picked by a number whose meaning changed since the
#: player's last screen, they are confirmed first (issue 32: stale numbers ended turns and discarded items).
RISKY = re.compile(r"^(end|pass|skip|discard|set (a )?trap|no move|no more)\b", re.IGNORECASE)
START_PROMPT = "Press Enter to start (r shows these rules at any choice, q quits): "
#: what a pager returns when ``q`` closes it: the decision screen is drawn again (the game goes on)
CLOSE = "\x1b"


class Quit(Exception):
    """The player asked to stop (or input ended)."""


class PlaySession:
    """One terminal game: humans answer prompts, bots act, everything is recorded."""

    def __init__(self, game: Game, specs: list[str], seed: int, save_path: str, out: Console,
                 compact: bool | None = None) -> None:
        self.game = game
        #: one screen per decision, sized to the terminal (else the scrolling log kept for pipes)
        self.compact = out.is_terminal if compact is None else compact
        self.specs = specs
        self.seed = seed
        self.save_path = save_path
        self.out = out
        self.state: State = game.new_state(seed)
        self.saved = SavedGame.start(game, seed, specs)
        self.bots = {
            s: make_agent(spec, game, s, agent_seed(seed, s)) for s, spec in enumerate(specs) if spec != HUMAN
        }
        self.humans = [s for s, spec in enumerate(specs) if spec == HUMAN]
        self.names = game.seat_names()
        self.seen: dict[int | None, int] = {s: 0 for s in self.humans}
        self.seen[None] = 0
        self.last_human: int | None = None
        #: per human seat: what was taken for it since its last screen (its only choice)
        self.notes: dict[int, list[str]] = {s: [] for s in self.humans}
        #: per human seat: the choice list it last answered (to tell a stale number)
        self.last_labels: dict[int, list[str]] = {}
        others = [f"{self._name(s)}: {spec}" for s, spec in enumerate(specs) if spec != HUMAN]
        #: who plays what, in one line (a compact first screen shows it: the header is cleared)
        self.intro = (f"You play {', '.join(self._name(s) for s in self.humans)}"
                      + (f"; bots: {', '.join(others)}" if others else "") + ". h for help") if self.humans else ""

    # -- the loop ----------------------------------------------------------
    def run(self) -> int:
        self.out.print(Text(f"{self.game.name} ({self.game.variant}, {self.game.players} players, seed {self.seed})", style="bold"))
        for s, spec in enumerate(self.specs):
            self.out.print(f"  {self._name(s)}: {spec}")
        quit_early = False
        try:
            if self.humans:
                self._show_rules(start=True)
            while True:
                seat = self.state.current_seat()
                if seat is None:
                    break
                if seat in self.bots:
                    self._apply(self.bots[seat].act(Decision(self.state, seat)))
                    if not self.humans:
                        self._show_events(None)
                    continue
                self._human_turn(seat)
        except (Quit, KeyboardInterrupt):  # Ctrl+C saves too
            quit_early = True
        self.saved.save(self.save_path, self.state)
        if quit_early:
            self.out.print(f"Game stopped after {self.state.decisions} decisions.")
        else:
            self._show_end()
        self.out.print(f"Saved to {self.save_path}; replay with: boardlab replay {self.save_path}")
        return 0

    def _apply(self, action: Any) -> None:
        self.state.apply(action)
        self.saved.actions.append(list(action))

    def _name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"Player {seat + 1}"

    # -- humans ------------------------------------------------------------
    def _human_turn(self, seat: int) -> None:
        legal = self.state.legal_actions()
        labels = [self.state.describe(a) for a in legal]
        if len(legal) == 1:  # nothing to decide: taken, and the seat's next screen says so
            self.notes.setdefault(seat, []).append(labels[0])
            self._take(legal[0])
            return
        if len(self.humans) > 1 and seat != self.last_human:
            self._hand_over(seat)
        self.last_human = seat
        scene = self.game.scene(self.state.view(seat), legal)
        squares = Squares.of(scene, labels)
        events = self._take_events(seat)
        prompt = (f"{self._name(seat)}, your choice [1-{len(legal)}{' or a square' if squares.any_named() else ''}]"
                  " (r rules, h help): ")
        taken = self.notes.get(seat) or []
        note = ("Earlier, with only one choice, this was done for you: " + "; ".join(dict.fromkeys(taken))) if taken else None
        self.notes[seat] = []
        if not self.compact:
            self._print_events(seat, events)
            if note:
                self.out.print(note)
            self._draw(seat, replay_events=False)
        page, among, message, redraw = 0, None, None, self.compact
        info = False  # the message is news (green), not an answer to a bad input (red)
        if self.compact:  # the first screen says who plays what (the header is cleared)
            message = " ".join(m for m in (self.intro, note and note + ".") if m) or None
            info, self.intro = bool(message), ""
        pending: str | None = None
        answered = False
        while True:
            if redraw:
                self._frame(seat, scene, labels, squares, events, message, page, among, info)
            redraw = self.compact
            message, info = None, False
            if answered:  # a screen was drawn and answered at this decision: its list has been seen
                self.last_labels[seat] = labels
            answer = pending if pending is not None else self._ask(prompt).strip().lower()
            pending, answered = None, True
            if answer == CLOSE:  # q in a pager: back to this decision's screen
                continue
            if answer in ("q", "quit", "exit"):
                raise Quit
            if answer == "":
                page, among = 0, None
                if not self.compact:
                    self._draw(seat, replay_events=False)
                continue
            if answer in ("m", "more"):
                page += 1
                continue
            if answer in ("r", "rules"):
                pending = self._show_rules(start=False, prompt=prompt)
                redraw = False  # the rules stay on screen until the next answer
                continue
            if answer in ("l", "log", "h", "?", "help", "a", "all", "i", "info", "b", "board"):
                pending = self._show_more(seat, answer[0], scene, labels, prompt)
                redraw = False  # what was asked for stays on screen until the next answer
                continue
            n = self._number(answer, labels)
            if 1 <= n <= len(legal):
                if self._stale(seat, labels, n) and not self._confirm(
                        n, labels[n - 1], lambda warn: self._frame(seat, scene, labels, squares, events, warn, page, among)):
                    message = f"{n} ({labels[n - 1]}) not taken; choose again"
                    self.last_labels[seat] = labels  # seen now: its numbers are not stale any more
                    if not self.compact:
                        self.out.print(message)
                    continue
                self.last_labels[seat] = labels
                self._take(legal[n - 1])
                return
            tokens = squares.parse(answer) if not answer.isdigit() else None
            if tokens is None:
                hint = f", or a square such as {squares.example()}" if squares.any_named() else ""
                message = f"Please type a number from 1 to {len(legal)}{hint} (h for help)"
            else:
                found = squares.match(tokens)
                if len(found) == 1:
                    self.last_labels[seat] = labels
                    self._take(legal[found[0]])
                    return
                if found:
                    among, page = found, 0
                    message = f"{answer}: {len(found)} choices; type one's number"
                else:
                    message = self._why_not(answer, tokens, squares, scene)
            if not self.compact:
                self.out.print(message if message else "")
                if among is not None and message and not message.startswith("Please"):
                    self.out.print(render_actions([labels[i] for i in among], numbers=[i + 1 for i in among]))

    @staticmethod
    def _number(answer: str, labels: list[str]) -> int:
        """The choice number ``answer`` names (0 if none): a number ("2", "2."), a listed line
        copied whole ("2. move to f4") or a choice's label typed in full ("move to f4")."""
        said = " ".join(answer.split())
        m = re.fullmatch(r"(\d+)\.?(?: (.*))?", said)
        if m:
            n = int(m.group(1))
            rest = m.group(2)
            if rest is None or (1 <= n <= len(labels) and " ".join(labels[n - 1].lower().split()) == rest):
                return n
            return 0
        same = [i + 1 for i, lab in enumerate(labels) if " ".join(lab.lower().split()) == said]
        return same[0] if len(same) == 1 else 0

    def _take(self, action: Any) -> None:
        self._apply(action)
        if self.save_path:
            self.saved.save(self.save_path, self.state)

    def _stale(self, seat: int, labels: list[str], n: int) -> bool:
        """Whether choice ``n`` ends the turn or gives something up (:data:`RISKY`) and its number
        meant another choice (or none) on the list ``seat`` last saw: the previous decision's list
        for the first answer at a decision, this decision's list once anything was answered at it
        (i, l, h, a, b, r, m, Enter or a bad answer: then it never asks)."""
        before = self.last_labels.get(seat)
        if before is None or not RISKY.match(labels[n - 1]):
            return False
        return n > len(before) or before[n - 1] != labels[n - 1]

    def _confirm(self, n: int, label: str, frame: Any) -> bool:
        """Ask before a :meth:`_stale` choice is taken: y takes it, anything else does not.  On a
        terminal the decision is redrawn with the warning (``frame(warning)``), the question below."""
        warn = f"The choices changed since your last screen: {n} is now '{label}'."
        if self.compact:
            frame(warn)
        else:
            self.out.print(warn)
        return self._ask(f"Take choice {n}? y/n: ").strip().lower() in ("y", "yes")

    def _show_rules(self, start: bool, prompt: str = "") -> str | None:
        """The game's quick start (the rules document's ``## Quick start``): at the start of the game
        (a terminal waits for Enter) and on ``r``.  Returns an answer typed on a page before the last."""
        text = quick_start(self.game)
        title = f"{self.game.name}: quick start"
        width = self.out.width
        lines = (quick_start_lines(title, text, width) if text
                 else [Text(title, style="bold"), *text_lines(self.game.description or "This game has no quick start.", width)])
        if not self.compact:
            if start:
                lines.append(Text("Type r at any choice to see these rules again, h for help.", style="dim"))
            for line in lines:
                self.out.print(line)
            return None
        answer = self._pager(lines, START_PROMPT if start else prompt)
        if start:
            if answer is None:
                answer = self._ask(START_PROMPT).strip().lower()
            if answer in ("q", "quit", "exit"):
                raise Quit
            return None
        return answer

    def _pager(self, lines: list[Text], last_prompt: str, newest_first: bool = False) -> str | None:
        """``lines`` on a cleared screen, a page at a time (the last row is the input line): Enter
        shows the next page; q closes the pager (:data:`CLOSE` is returned, except before the game
        starts); anything else typed before the last page is returned as an answer.  The last page
        stays on screen for the caller's own prompt (None is returned).  ``newest_first`` (the log):
        the last lines come first, and Enter goes back to older ones."""
        width, height = self.out.size
        rows = height - 1
        if newest_first:  # cut from the end: the newest page is full, then each older page
            shown = [list(reversed(p)) for p in pages(list(reversed(lines)), rows)]
        else:
            shown = pages(lines, rows)
        start = last_prompt == START_PROMPT
        more = "Enter: older" if newest_first else "Enter: more"
        close = "" if start else ", q: back to choices"
        for i, page_lines in enumerate(shown):
            self.out.clear()
            self.out.print(Text("\n").join(page_lines), crop=True, overflow="crop", no_wrap=True)
            if i == len(shown) - 1:
                return None
            newest = "newest, " if newest_first else ""
            answer = self._ask(f"({newest}page {i + 1} of {len(shown)}) {more}{close}, or type a choice: ").strip().lower()
            if answer in ("q", "quit", "exit") and not start:
                return CLOSE
            if answer:
                return answer
        return None

    def _why_not(self, typed: str, tokens: list[str], squares: Squares, scene: dict[str, Any]) -> str:
        """One line saying that ``typed`` (square names) names no legal action now, and why: the
        game's reason (:meth:`State.why_not`, for the piece typed first, else the square typed
        last), else what the scene can tell (see :meth:`Squares.why_not`)."""
        general = squares.why_not(typed, tokens, scene)
        seat = self.state.current_seat()
        for token in dict.fromkeys((tokens[0], tokens[-1])) if tokens else ():
            try:
                reason = self.state.why_not(seat, squares.shown.get(token, token))
            except BoardlabError:
                reason = None
            if reason and reason != "not a legal choice now":
                choose = general.partition("; you can choose ")[2]
                return f"{typed}: {reason}" + (f"; you can choose {choose}" if choose else "")
        return general

    def _frame(self, seat: int, scene: dict[str, Any], labels: list[str], squares: Squares, events: list[str],
               message: str | None, page: int, among: list[int] | None, info: bool = False) -> None:
        """Clear the screen and draw the decision so that it fits (the last row is for the input)."""
        width, height = self.out.size
        frame = compact_frame(scene, labels, width=width, height=height, events=events, message=message,
                              page=page, among=among, seat=seat, squares=squares,
                              message_style="bold green" if info else "bold red")
        self.out.clear()
        self.out.print(Text("\n").join(frame.lines), crop=True, overflow="crop", no_wrap=True)

    def _show_more(self, seat: int, what: str, scene: dict[str, Any], labels: list[str], prompt: str = "") -> str | None:
        """The things a compact frame leaves out: on a terminal on a cleared screen, paged to fit
        it (an answer typed before the last page is returned); else printed in full (they scroll)."""
        width = self.out.width
        parts: list[Any] = []
        if what == "l":
            parts = [f"  {ev['text']}" for ev in self.state.events(seat)] or ["(nothing in your log yet)"]
        elif what in ("h", "?"):
            parts = [HELP_LINE]
        elif what == "a":
            parts = [render_actions(labels)]
        elif what == "i":
            parts = list(layout_panels(scene.get("panels") or (), width))
        elif what == "b":
            parts = [render_scene({k: v for k, v in scene.items() if k != "panels"}, width=width)]
        if not self.compact:
            for part in parts:
                self.out.print(part)
            return None
        lines: list[Text] = []
        for part in parts:
            lines += text_lines(part, width)
        return self._pager(lines, prompt, newest_first=what == "l")

    def _hand_over(self, seat: int) -> None:
        if self.out.is_terminal:
            self.out.clear()
        self.out.print(Rule(f"Hand over to {self._name(seat)}"))
        self.out.print(f"Pass the terminal to {self._name(seat)}; the others should look away.")
        self._ask("Press Enter when ready...")
        if self.out.is_terminal:
            self.out.clear()

    def _draw(self, seat: int, replay_events: bool = True) -> None:
        if replay_events:
            self._show_events(seat)
        legal = self.state.legal_actions()
        view = self.state.view(seat)
        scene = self.game.scene(view, legal)
        self.out.print(Rule(f"{self._name(seat)}'s view"))
        self.out.print(render_scene(scene, width=self.out.width))
        self.out.print(render_actions([self.state.describe(a) for a in legal]))

    def _show_events(self, seat: int | None) -> None:
        self._print_events(seat, self._take_events(seat))

    def _take_events(self, seat: int | None) -> list[str]:
        """The log lines ``seat`` has not been shown yet (marked as shown)."""
        events = self.state.events(seat)
        new = events[self.seen.get(seat, 0) :]
        self.seen[seat] = len(events)
        return [str(ev["text"]) for ev in new]

    def _print_events(self, seat: int | None, new: list[str]) -> None:
        if new and seat is not None:
            self.out.print(Text("Since your last turn:", style="dim"))
        for text in new:
            self.out.print(f"  {text}")

    def _ask(self, prompt: str) -> str:
        try:
            return self.out.input(prompt)
        except EOFError:
            self.out.print()
            raise Quit from None

    # -- the end -----------------------------------------------------------
    def _show_end(self) -> None:
        seat = self.humans[0] if len(self.humans) == 1 else None
        view = self.state.view(seat)
        scene = self.game.scene(view, ())
        if self.compact:  # the end on one screen too, with room for the result and the saved path
            width, height = self.out.size
            events = self._take_events(seat) if seat is not None else []
            frame = compact_frame(scene, [], width=width, height=height - 3, events=events, seat=seat)
            self.out.clear()
            self.out.print(Rule("Game over"))
            self.out.print(Text("\n").join(frame.lines), crop=True, overflow="crop", no_wrap=True)
            line = status_line(view, self.names)
            if line != scene.get("status"):
                self.out.print(Text(line, style="bold green"), crop=True, overflow="ellipsis", no_wrap=True)
            return
        if seat is not None:
            self._show_events(seat)
        self.out.print(Rule("Game over"))
        self.out.print(render_scene(scene, width=self.out.width))
        line = status_line(view, self.names)
        if line != scene.get("status"):
            self.out.print(Text(line, style="bold green"))


def default_save_path(game_id: str, seed: int) -> Path:
    """Where a game is saved without ``--save``: the per-user data folder, never the current one."""
    folder = platformdirs.user_data_path("boardlab", appauthor=False) / "games"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # saving then fails early with a clear message (exit 2)
    return folder / f"{game_id}-{seed}.json"


@click.command("play")
@click.argument("game_id", metavar="GAME")
@click.option("--players", type=PLAYERS, help="Number of players (default: the game's).")
@click.option("--variant", help="Rule variant (default: the game's first).")
@click.option("--seat", "seats", multiple=True, metavar="K=AGENT",
              help="Who plays seat K, counted from 1: 'human' or an agent spec (repeatable). Default: seat 1 is human.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="Override a game option (repeatable).")
@click.option("--seed", type=SEED, help="Random seed (default: a fresh random one).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), callback=check_output_file, help="Where to save the game (default: GAME-SEED.json in the per-user data folder; the path is printed).")
def command(game_id: str, players: int | None, variant: str | None, seats: tuple[str, ...],
            options: tuple[str, ...], seed: int | None, save_path: str | None) -> int:
    """Play GAME in the terminal: humans against bots, or several humans hot-seat."""
    game = make_game(game_id, players, variant, options)
    specs = parse_seats(seats, game)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    if save_path is None:
        save_path = str(default_save_path(game.id, seed))
    session = PlaySession(game, specs, seed, save_path, console())
    session.saved.save(save_path)  # fail early (exit 2) if the file cannot be written
    return session.run()
