"""``boardlab replay``: step through a saved game as one seat (or a spectator) saw it.

The saved actions are re-applied from the saved seed.  Each step shows the
events that seat may see (redacted), the acting seat's own action label only
when it is the replaying seat's (another seat's label could reveal something
hidden), and the board drawn from that seat's view.  On a terminal the replay
is interactive; otherwise every step is printed.
"""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from boardlab.engine.errors import InvalidOptionError
from boardlab.engine.game import Game
from boardlab.engine.scene import status_line
from boardlab.engine.state import State
from boardlab.render.terminal import render_scene

from .common import console
from .savefile import SavedGame, replay_states

KEYS = "Enter/n: next, b: back, a NUMBER: go to step, e: to the end, q: quit"


class Replay:
    def __init__(self, saved: SavedGame, game: Game, states: list[State], seat: int | None, out: Console) -> None:
        self.saved, self.game, self.states, self.seat, self.out = saved, game, states, seat, out
        self.names = game.seat_names()
        self.events = states[-1].events(seat)
        # the log length after each step (the engine keeps it; clones share the log)
        self.log_len = [s._log_len for s in states]

    @property
    def steps(self) -> int:
        return len(self.states) - 1

    def who(self, s: int | None) -> str:
        if s is None:
            return "spectator"
        return self.names[s] if s < len(self.names) else f"Player {s + 1}"

    def show_step(self, k: int, board: bool) -> None:
        """Show step ``k`` (0 = the set-up, k = after the k-th action)."""
        if k == 0:
            self.out.print(Rule(f"Set-up (seed {self.saved.seed})"))
            new = self.events[: self.log_len[0]]
        else:
            before = self.states[k - 1]
            actor = before.current_seat()
            action = tuple(self.saved.actions[k - 1])
            # only the replaying seat's own choices are labelled: a label may name hidden things
            what = f": {before.describe(action)}" if actor is not None and actor == self.seat else " acts"
            self.out.print(Rule(f"Step {k}/{self.steps}: {self.who(actor)}{what}"))
            new = self.events[self.log_len[k - 1] : self.log_len[k]]
        for ev in new:
            self.out.print(f"  {ev['text']}")
        if board:
            state = self.states[k]
            view = state.view(self.seat)
            self.out.print(render_scene(self.game.scene(view, ()), width=self.out.width))
        if k == self.steps:
            view = self.states[k].view(self.seat)
            if view["over"]:
                self.out.print(Text(status_line(view, self.names), style="bold green"))
            else:
                self.out.print(Text("(the saved game stops here, unfinished)", style="dim"))

    def print_all(self, boards: bool) -> None:
        for k in range(self.steps + 1):
            self.show_step(k, board=boards or k in (0, self.steps))

    def interactive(self) -> None:
        k = 0
        self.show_step(0, True)
        while True:
            try:
                answer = self.out.input(f"[step {k}/{self.steps}] {KEYS} > ").strip().lower()
            except EOFError:
                return
            if answer in ("q", "quit", "exit"):
                return
            if answer in ("", "n", "next"):
                if k < self.steps:
                    k += 1
            elif answer in ("b", "back"):
                k = max(0, k - 1)
            elif answer in ("e", "end"):
                k = self.steps
            else:
                try:
                    k = min(self.steps, max(0, int(answer.removeprefix("a").strip())))
                except ValueError:
                    self.out.print(KEYS)
                    continue
            self.show_step(k, True)


@click.command("replay")
@click.argument("path", metavar="FILE")
@click.option("--seat", type=int, help="Show the game as this seat saw it, counted from 1 (default: a spectator).")
@click.option("--boards", is_flag=True, help="Non-interactive: draw the board after every step.")
def command(path: str, seat: int | None, boards: bool) -> int:
    """Step through the saved game FILE (written by 'boardlab play')."""
    saved = SavedGame.load(path)
    game, states = replay_states(saved)
    if seat is not None:  # counted from 1, as players see seats; 0-based from here on
        if not 1 <= seat <= game.players:
            raise InvalidOptionError(f"--seat must be 1..{game.players} for this {game.players}-player game, got {seat}")
        seat -= 1
    out = console()
    out.print(Text(f"{game.name}: {game.variant}, {game.players} players, seed {saved.seed}, "
                   f"{len(saved.actions)} actions; agents {', '.join(saved.agents)}; viewing as {_who_static(game, seat)}",
                   style="bold"))
    replay = Replay(saved, game, states, seat, out)
    if sys.stdin.isatty() and out.is_terminal:
        replay.interactive()
    else:
        replay.print_all(boards)
    return 0


def _who_static(game: Game, seat: int | None) -> str:
    if seat is None:
        return "a spectator"
    names = game.seat_names()
    return f"{names[seat]} (seat {seat + 1})" if seat < len(names) else f"seat {seat + 1}"

