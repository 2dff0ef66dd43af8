"""Two tiny games built to test agents (registered by tests/agents/conftest.py).

``agents-guess``: a hidden coin only seat 1 knows; seat 0 guesses it, then
seat 1 has a response window (a prompt) to pass or to concede.  Seat 0 wins
on a right guess.  Knowing the coin wins every game; not knowing it, 50%.

``agents-race``: 2-4 players (optionally two teams) race to ``target``.  On
a turn a seat steps 1, steps 2 or rolls a d2 (chance).  After each move the
next seat gets a response window: it may spend its one block to cancel that
move, or pass.  Skill matters (step 2 is best, blocks should be saved for
big moves), so a searching agent beats a random one clearly.
"""

from __future__ import annotations

from boardlab.agents.base import BaseAgent
from boardlab.engine import Game, Option, Prompt, Results, State, win_results


class GuessState(State):
    __slots__ = ("coin", "guess", "conceded")

    def _setup(self) -> None:
        self.coin = self.rng.below(2)
        self.guess = -1
        self.conceded = False
        self.begin_turn()

    def _current_seat(self) -> int:
        return 0

    def _legal_actions(self):
        if self.stack:
            return [("pass",), ("concede",)]
        return [("guess", 0), ("guess", 1)]

    def _apply(self, action) -> None:
        if self.stack:
            self.stack.pop()
            self.conceded = action[0] == "concede"
            return
        self.guess = action[1]
        self.stack.append(Prompt(1, "respond"))

    def _is_over(self) -> bool:
        return self.guess >= 0 and not self.stack

    def _results(self) -> Results:
        won = self.conceded or self.guess == self.coin
        return win_results(2, [0 if won else 1], "guess")

    def _view(self, seat):
        return {"coin": self.coin if seat == 1 or self._is_over() else None, "guess": self.guess}

    def _determinize(self, seat, rng) -> None:
        if seat != 1 and not self._is_over():
            self.coin = rng.below(2)

    def features(self, seat):
        return {"guessed_one": float(self.guess == 1), "conceded": float(self.conceded)}


class GuessGame(Game):
    id = "agents-guess"
    name = "Guess the coin"
    description = "Seat 0 guesses a coin only seat 1 knows (agent tests)."
    min_players = max_players = default_players = 2
    hidden_information = True
    state_class = GuessState
    personas = {"ones": {"guessed_one": 1.0}, "zeros": {"guessed_one": -1.0}}


class RaceState(State):
    __slots__ = ("pos", "blocks", "seat", "last")

    def _setup(self) -> None:
        n = self.game.players
        self.pos = [0] * n
        self.blocks = [1] * n
        self.seat = 0
        self.last = 0
        self.begin_turn()

    def _current_seat(self) -> int:
        return self.seat

    def _legal_actions(self):
        if self.stack:
            p = self.stack[-1]
            return [("pass",), ("block",)] if self.blocks[p.seat] else [("pass",)]
        return [("step", 1), ("step", 2), ("roll",)]

    def _apply(self, action) -> None:
        n = self.game.players
        if self.stack:
            p = self.stack.pop()
            if action[0] == "block":
                self.blocks[p.seat] -= 1
                self.pos[p.data] -= self.last
            self._next(p.data)
            return
        s = self.seat
        gain = action[1] if action[0] == "step" else self.rng.roll(2)
        self.pos[s] += gain
        self.last = gain
        if not self._is_over():
            self.stack.append(Prompt((s + 1) % n, "block", s))

    def _next(self, s: int) -> None:
        if not self._is_over():
            self.seat = (s + 1) % self.game.players
            self.begin_turn()

    def _team(self, seat: int) -> int:
        return seat % 2 if self.game.option_values["teams"] else seat

    def _is_over(self) -> bool:
        return max(self.pos) >= self.game.option_values["target"]

    def _results(self) -> Results:
        best = max(range(self.game.players), key=lambda s: self.pos[s])
        team = self._team(best)
        return win_results(self.game.players, [s for s in range(self.game.players) if self._team(s) == team], "race")

    def _view(self, seat):
        return {"pos": list(self.pos), "blocks": list(self.blocks), "last": self.last}

    def evaluate(self, seat: int) -> float:
        target = self.game.option_values["target"]
        team = self._team(seat)
        mine = max(self.pos[s] for s in range(self.game.players) if self._team(s) == team)
        theirs = max(self.pos[s] for s in range(self.game.players) if self._team(s) != team)
        return max(0.0, min(1.0, 0.5 + (mine - theirs) / (2 * target)))

    def features(self, seat):
        return {"progress": float(self.pos[seat]), "blocks": float(self.blocks[seat])}


class RaceHeuristic(BaseAgent):
    """Steps 2; blocks a move that brings anyone within ``margin`` (3) of the target."""

    defaults = {"margin": 3}

    def act(self, decision):
        legal = decision.legal
        if ("step", 2) in legal:
            return ("step", 2)
        st = decision.view["state"]
        if ("block",) in legal and max(st["pos"]) >= decision.game.option_values["target"] - self.params["margin"]:
            return ("block",)
        return ("pass",)


class RaceGame(Game):
    id = "agents-race"
    name = "Blocking race"
    description = "A race with dice and response windows (agent tests)."
    min_players, max_players, default_players = 2, 4, 2
    options = (
        Option("target", 8, "Distance to win", "int", low=2, high=50),
        Option("teams", False, "Seats 0 and 2 against 1 and 3", "bool"),
    )
    state_class = RaceState
    default_max_turns = 200
    agents = {"heuristic": "tests.agents.games:RaceHeuristic"}
    personas = {"runner": {"progress": 1.0}, "hoarder": {"blocks": 5.0, "progress": 0.1}}
