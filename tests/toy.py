"""A tiny game used to test the engine itself: a race to 10 with hidden cards.

Each seat holds a hidden hand of cards (1..3).  On its turn a seat plays a
card (adds it to its score) or rolls a d3 (adds the roll).  The first to reach
``target`` wins.  Played cards are public; the hand and deck are hidden.
"""

from __future__ import annotations

from boardlab.engine import Deck, Game, Option, Results, State, Variant, win_results


class ToyState(State):
    __slots__ = ("scores", "hands", "deck", "seat")

    def _setup(self) -> None:
        self.deck = Deck([1, 2, 3] * 4)
        self.deck.shuffle(self.rng)
        self.hands = [self.deck.draw_many(self.rng, 2) for _ in range(self.game.players)]
        self.scores = [0] * self.game.players
        self.seat = 0
        self.begin_turn()

    def _current_seat(self) -> int:
        return self.seat

    def _legal_actions(self):
        acts = [("play", c) for c in sorted(set(self.hands[self.seat]))]
        acts.append(("roll",))
        return acts

    def _apply(self, action) -> None:
        s = self.seat
        if action[0] == "play":
            self.hands[s].remove(action[1])
            self.scores[s] += action[1]
            self.deck.discard(action[1])
            self.emit(f"Seat {s + 1} plays {action[1]}", {"seat": s, "card": action[1]})
            c = self.deck.draw(self.rng)
            if c is not None:
                self.hands[s].append(c)
                self.emit(f"Seat {s + 1} draws", to=[s], private_text=f"You draw {c}")
        else:
            r = self.rng.roll(3)
            self.scores[s] += r
            self.emit(f"Seat {s + 1} rolls {r}", {"roll": r})
        if not self._is_over():
            self.seat = (s + 1) % self.game.players
            self.begin_turn()

    def _is_over(self) -> bool:
        return max(self.scores) >= self.game.option_values["target"]

    def _results(self) -> Results:
        best = max(self.scores)
        return win_results(self.game.players, [i for i, v in enumerate(self.scores) if v == best], "reached the target")

    def _view(self, seat):
        return {
            "scores": list(self.scores),
            "hand": list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "deck": len(self.deck),
        }

    def _determinize(self, seat, rng) -> None:
        pool = list(self.deck.draw_pile)
        for s in range(self.game.players):
            if s != seat:
                pool.extend(self.hands[s])
        rng.shuffle(pool)
        for s in range(self.game.players):
            if s != seat:
                n = len(self.hands[s])
                self.hands[s] = pool[:n]
                pool = pool[n:]
        self.deck.draw_pile = pool

    def describe(self, action) -> str:
        return f"play {action[1]}" if action[0] == "play" else "roll a d3"


class ToyGame(Game):
    id = "toy"
    name = "Toy race"
    description = "A race to a target with hidden cards (engine tests only)."
    min_players, max_players, default_players = 2, 4, 2
    hidden_information = True
    options = (Option("target", 10, "Score needed to win", "int", low=3, high=50, tunable=True),)
    variants = (Variant("standard", "Race to 10."), Variant("short", "Race to 5.", {"target": 5}))
    state_class = ToyState
    default_max_turns = 100


class CoinState(State):
    """Seat 0 flips a biased coin: it wins with probability ``bias`` percent.  (Tuner tests.)"""

    __slots__ = ("winner",)

    def _setup(self) -> None:
        self.winner = -1
        self.begin_turn()

    def _current_seat(self) -> int:
        return 0

    def _legal_actions(self):
        return [("flip",)]

    def _apply(self, action) -> None:
        self.winner = 0 if self.rng.below(100) < self.game.option_values["bias"] else 1

    def _is_over(self) -> bool:
        return self.winner >= 0

    def _results(self) -> Results:
        return win_results(2, [self.winner], "coin")

    def _view(self, seat):
        return {"winner": self.winner}


class CoinGame(Game):
    id = "coin"
    name = "Coin"
    description = "A planted optimum for the tuner: balance is best at bias=50."
    min_players = max_players = default_players = 2
    options = (Option("bias", 80, "Percent chance that seat 0 wins", "int", low=0, high=100, tunable=True),)
    state_class = CoinState
