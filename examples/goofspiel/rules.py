"""Goofspiel's rules: the state's fields and transitions.

Each round one prize card is turned up.  Both players choose one of their own
cards in secret; then both bids are revealed together.  The higher bid wins
the prize (its value in points); equal bids win nothing and the prize is
discarded.  Bid cards are spent.  After the last round the player with more
points wins; equal points are a draw.

**Secret simultaneous moves as a sequence of decisions.**  The engine asks one
seat at a time, so a round is two ordinary decisions: seat 0 bids, then seat
1 bids, then the reveal happens inside seat 1's ``_apply``.  Seat 0's bid
waits in ``bids[0]`` (hidden, see view.py) and its card stays in ``hands[0]``
until the reveal: a card leaves the hand only when everyone sees it played.

**Chance.**  The prize deck is shuffled; rather than keep a hidden order, the
next prize is drawn from ``self.rng`` when it is turned up (the engine's
"sampled stochastic" convention), so ``prizes`` is public: the prizes still to
come, in order of value.
"""

from __future__ import annotations

from boardlab.engine import Results, State, win_results

from .content import suit


class GoofspielRules(State):
    """The rules' state (no view, scene, features or agents: see game.py)."""

    __slots__ = ("hands", "prizes", "prize", "bids", "points", "rounds")

    hands: list[list[int]]  # each seat's unplayed cards, a pending bid included, ascending
    prizes: list[int]  # prize cards not yet turned up, ascending (their order is drawn at reveal)
    prize: int  # the prize on the table (0 once the game is over)
    bids: list[int | None]  # each seat's pending bid this round (None: not yet bid)
    points: list[int]  # prize points won
    rounds: list[list[int]]  # revealed rounds: [prize, bid of seat 0, bid of seat 1]

    def _setup(self) -> None:
        cards = self.game.option_values["cards"]
        self.hands = [suit(cards) for _ in range(self.game.players)]
        self.prizes = suit(cards)
        self.bids = [None] * self.game.players
        self.points = [0] * self.game.players
        self.rounds = []
        self.prize = 0
        self._turn_up()

    def _turn_up(self) -> None:
        """Start a round: turn up a random prize card (public)."""
        self.prize = self.prizes.pop(self.rng.below(len(self.prizes)))
        self.begin_turn()
        self.emit(f"Round {self.turn}: the prize is {self.prize}", {"prize": self.prize})

    def _current_seat(self) -> int:
        # the first seat that has not bid; the last bid reveals at once, so one always has not
        return self.bids.index(None)

    def _legal_actions(self) -> list[tuple]:
        return [("bid", c) for c in self.hands[self._current_seat()]]

    def _apply(self, action: tuple) -> None:
        seat, card = self._current_seat(), action[1]
        self.bids[seat] = card
        # public: that the seat bid; private (to the bidder only): which card
        self.emit(f"Player {seat + 1} bids a card", {"seat": seat},
                  to=[seat], private_text=f"You bid {card}", private_data={"seat": seat, "card": card})
        if None not in self.bids:
            self._reveal()

    def _reveal(self) -> None:
        bids, prize = [int(b) for b in self.bids], self.prize  # type: ignore[arg-type]
        for seat, card in enumerate(bids):
            self.hands[seat].remove(card)
        best = max(bids)
        top = [s for s, b in enumerate(bids) if b == best]
        winner = top[0] if len(top) == 1 else None
        if winner is not None:
            self.points[winner] += prize
            outcome = f"Player {winner + 1} wins {prize}"
        else:
            outcome = f"a tie, the {prize} is discarded"
        self.emit(f"Player 1 bids {bids[0]}, Player 2 bids {bids[1]}: {outcome}",
                  {"prize": prize, "bids": bids, "winner": winner})
        self.rounds.append([prize, *bids])
        self.bids = [None] * self.game.players
        if self.prizes:
            self._turn_up()
        else:
            self.prize = 0

    def _is_over(self) -> bool:
        return not self.hands[0]

    def _results(self) -> Results:
        p = self.points
        if p[0] == p[1]:
            # a draw: a finished game with no winners (the playtest verdict counts an equal share per seat)
            return Results((0.5, 0.5), (), False, f"a draw on {p[0]} points each")
        winner = 0 if p[0] > p[1] else 1
        return win_results(2, [winner], f"{p[winner]} points to {p[1 - winner]}")

    def roles(self) -> tuple[str, ...]:
        return ("Player 1", "Player 2")

    def metrics(self) -> dict[str, list[int]]:
        """Usage counters for the playtest lab: prizes won and rounds tied, per seat."""
        won = [0, 0]
        for prize, b0, b1 in self.rounds:
            if b0 != b1:
                won[0 if b0 > b1 else 1] += 1
        ties = sum(1 for _, b0, b1 in self.rounds if b0 == b1)
        return {"rule:prizes_won": won, "rule:tied_rounds": [ties, ties]}
