"""``boardlab play``: play a game in the terminal against bots or hot-seat.

Each human seat sees only its own view: the board is drawn from the scene of
that seat's view, with the events since its last turn (redacted for it).
When several humans share the terminal, a hand-over screen comes between
their turns.  The game is saved (config, seed, agents, actions) for
``boardlab replay``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click
import platformdirs
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from boardlab.agents import Decision, make_agent
from boardlab.engine.game import Game
from boardlab.agents.runner import agent_seed
from boardlab.engine.scene import status_line
from boardlab.engine.state import State
from boardlab.render.terminal import render_actions, render_scene

from .common import HUMAN, PLAYERS, SEED, console, make_game, parse_seats
from .savefile import SavedGame

HELP_LINE = "Type the number of an action; 'l' shows your whole log, 'r' redraws, 'q' saves and quits."


class Quit(Exception):
    """The player asked to stop (or input ended)."""


class PlaySession:
    """One terminal game: humans answer prompts, bots act, everything is recorded."""

    def __init__(self, game: Game, specs: list[str], seed: int, save_path: str, out: Console) -> None:
        self.game = game
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

    # -- the loop ----------------------------------------------------------
    def run(self) -> int:
        self.out.print(Text(f"{self.game.name} ({self.game.variant}, {self.game.players} players, seed {self.seed})", style="bold"))
        for s, spec in enumerate(self.specs):
            self.out.print(f"  {self._name(s)}: {spec}")
        quit_early = False
        try:
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
        if len(self.humans) > 1 and seat != self.last_human:
            self._hand_over(seat)
        self.last_human = seat
        self._draw(seat)
        legal = self.state.legal_actions()
        while True:
            answer = self._ask(f"{self._name(seat)}, your choice [1-{len(legal)}]: ").strip().lower()
            if answer in ("q", "quit", "exit"):
                raise Quit
            if answer in ("r", ""):
                self._draw(seat, replay_events=False)
                continue
            if answer in ("l", "log"):
                for ev in self.state.events(seat):
                    self.out.print(f"  {ev['text']}")
                continue
            if answer in ("h", "?", "help"):
                self.out.print(HELP_LINE)
                continue
            try:
                n = int(answer)
            except ValueError:
                n = 0
            if 1 <= n <= len(legal):
                self._apply(legal[n - 1])
                if self.save_path:
                    self.saved.save(self.save_path, self.state)
                return
            self.out.print(f"Please type a number from 1 to {len(legal)} ({HELP_LINE})")

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
        events = self.state.events(seat)
        new = events[self.seen.get(seat, 0) :]
        self.seen[seat] = len(events)
        if new and seat is not None:
            self.out.print(Text("Since your last turn:", style="dim"))
        for ev in new:
            self.out.print(f"  {ev['text']}")

    def _ask(self, prompt: str) -> str:
        try:
            return self.out.input(prompt)
        except EOFError:
            self.out.print()
            raise Quit from None

    # -- the end -----------------------------------------------------------
    def _show_end(self) -> None:
        seat = self.humans[0] if len(self.humans) == 1 else None
        if seat is not None:
            self._show_events(seat)
        view = self.state.view(seat)
        self.out.print(Rule("Game over"))
        scene = self.game.scene(view, ())
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
              help="Who plays seat K: 'human' or an agent spec (repeatable). Default: seat 0 is human.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="Override a game option (repeatable).")
@click.option("--seed", type=SEED, help="Random seed (default: a fresh random one).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Where to save the game (default: GAME-SEED.json in the per-user data folder; the path is printed).")
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
