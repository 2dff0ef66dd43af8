"""A sealed-bid toy (Goofspiel in miniature) and the leaks a designer plants to test the shared suite.

Each round a prize card (1..3) is turned up; seat 0 bids a card from its hand face down, then seat 1 does, then
both bids are revealed and the higher takes the prize (a tie: nobody). A bid is secret until both have bid: the
view shows only *that* a seat has bid, and the public log says "Player 1 bids" while the bidder alone reads
"You bid 3". Three rounds, most prize points wins.

The planted leaks (issue 46, section 3), one per subclass:

* :class:`ViewLeak`: the opponent's face-down bid is shown in the view;
* :class:`EarlyLeak`: the bid card leaves the bidder's public hand (the cards it still holds) before the reveal,
  so the opponent sees which card went;
* :class:`LogLeak`: the bid is written into a public log event ("Player 1 bids 3") before the other seat bids.
  Only a check of everything a seat receives (the view *and* the events) catches this one.
"""

from __future__ import annotations

from boardlab.engine import Game, Results, State, win_results

CARDS = (1, 2, 3)


class BidState(State):
    __slots__ = ("hands", "prizes", "prize", "bids", "points", "round")

    def _setup(self) -> None:
        self.prizes = list(CARDS)
        self.rng.shuffle(self.prizes)
        self.hands = [list(CARDS) for _ in range(2)]
        self.points = [0, 0]
        self.bids: list[int | None] = [None, None]
        self.round = 0
        self.prize = self.prizes.pop()
        self.emit(f"The prize is {self.prize}", {"prize": self.prize})
        self.begin_turn()

    def _current_seat(self) -> int:
        return 0 if self.bids[0] is None else 1

    def _legal_actions(self):
        return [("bid", c) for c in self.hands[self._current_seat()]]

    def announce(self, seat: int, card: int) -> None:
        """The bid in the log: public "Player N bids", the card to the bidder alone."""
        self.emit(f"Player {seat + 1} bids", {"seat": seat}, to=[seat], private_text=f"You bid {card}",
                  private_data={"seat": seat, "card": card})

    def _apply(self, action) -> None:
        seat, card = self._current_seat(), action[1]
        self.hands[seat].remove(card)
        self.bids[seat] = card
        self.announce(seat, card)
        if seat == 1:
            a, b = self.bids
            self.emit(f"Player 1 bid {a}, Player 2 bid {b}", {"bids": [a, b]})
            if a != b:
                self.points[0 if a > b else 1] += self.prize
            self.bids = [None, None]
            self.round += 1
            if self.prizes:
                self.prize = self.prizes.pop()
                self.emit(f"The prize is {self.prize}", {"prize": self.prize})
        if not self._is_over():
            self.begin_turn()

    def _is_over(self) -> bool:
        return self.round >= len(CARDS)

    def _results(self) -> Results:
        best = max(self.points)
        return win_results(2, [s for s in range(2) if self.points[s] == best], "most prize points")

    def held(self, seat: int) -> list[int]:
        """The cards ``seat`` still holds as everyone sees them: a face-down bid is still in the hand until the reveal."""
        return sorted(self.hands[seat] + ([self.bids[seat]] if self.bids[seat] is not None else []))

    def _view(self, seat):
        return {
            "prize": self.prize if not self._is_over() else None,
            "points": list(self.points),
            "hands": [self.held(s) for s in range(2)],
            "bid": [self.bids[s] is not None for s in range(2)],
            "my_bid": self.bids[seat] if seat is not None else None,
        }

    def _determinize(self, seat, rng) -> None:
        other = 1 - seat
        if self.bids[other] is not None:  # the face-down bid is any card the other seat still held
            pool = self.held(other)
            self.bids[other] = pool[rng.below(len(pool))]
            pool.remove(self.bids[other])
            self.hands[other] = pool

    def describe(self, action) -> str:
        return f"Bid the {action[1]}"


class BidGame(Game):
    id = "toy-bid"
    name = "Sealed bids"
    description = "Three rounds of sealed bids for a prize (engine tests only)."
    min_players = max_players = default_players = 2
    hidden_information = True
    state_class = BidState
    default_max_turns = 20


class ViewLeakState(BidState):
    __slots__ = ()

    def _view(self, seat):
        return {**super()._view(seat), "bids": list(self.bids)}  # the face-down bids, shown to everyone


class EarlyLeakState(BidState):
    __slots__ = ()

    def held(self, seat: int) -> list[int]:
        return sorted(self.hands[seat])  # the bid card leaves the public hand before the reveal


class LogLeakState(BidState):
    __slots__ = ()

    def announce(self, seat: int, card: int) -> None:
        self.emit(f"Player {seat + 1} bids {card}", {"seat": seat, "card": card})  # in the public log


def _leaky(state_class: type, name: str) -> type:
    return type(name, (BidGame,), {"state_class": state_class, "id": f"toy-bid-{name.lower()}"})


ViewLeak = _leaky(ViewLeakState, "ViewLeak")
EarlyLeak = _leaky(EarlyLeakState, "EarlyLeak")
LogLeak = _leaky(LogLeakState, "LogLeak")
