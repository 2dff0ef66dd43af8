"""What a seat may know: the view, determinization, labels and tags.

Public: the prize, the prizes still to come, the points, every revealed round,
each seat's unplayed cards, and *whether* each seat has bid this round.
Hidden: *which* card a seat has bid, until the reveal; only the bidder knows.

The subtle part: a pending bid must not show anywhere else either.  Its card
stays among the bidder's unplayed cards (``hands``) until the reveal, so the
hand a seat's opponent sees still has its full size and every card.  Removing
the card at bid time would tell the opponent exactly which card was bid.
"""

from __future__ import annotations

from typing import Any

from boardlab.engine import Rng


class GoofspielView:
    """Mixin of :class:`~.game.GoofspielState`: what each seat sees of the rules' state."""

    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "prize": self.prize,
            "prizes_left": list(self.prizes),
            "points": list(self.points),
            "hands": [list(h) for h in self.hands],  # a pending bid is still in its hand
            "bid_made": [b is not None for b in self.bids],
            "my_bid": self.bids[seat] if seat is not None else None,  # only the bidder sees its card
            "rounds": [list(r) for r in self.rounds],
        }

    def _determinize(self, seat: int, rng: Rng) -> None:
        """Resample what ``seat`` cannot see: every other seat's pending bid.

        Consistent with the view: the bid is one of that seat's unplayed cards
        (each equally likely, since the view says nothing more).  The next
        prize is drawn at reveal time from the state's rng, which
        :meth:`State.determinize` has already reseeded, so there is no hidden
        deck order to resample.
        """
        for other, bid in enumerate(self.bids):
            if other != seat and bid is not None:
                hand = self.hands[other]
                self.bids[other] = hand[rng.below(len(hand))]

    def describe(self, action: tuple) -> str:
        return f"bid the {action[1]} card"  # not "bid 4": a bare number reads as an index (label rule 6)

    def action_tags(self, action: tuple) -> tuple[str, ...]:
        return (f"card:{action[1]}",)
