"""Helpers to build explicit Summoner's Quest positions for rule scenarios."""

from __future__ import annotations

from boardlab.engine import make
from boardlab.engine.rng import Rng
from boardlab.games.summoners_quest.effects import Summon


class Dice(Rng):
    """An Rng whose dice are scripted (rolls pop from the front of ``faces``)."""

    __slots__ = ("faces",)

    def __init__(self, faces) -> None:
        super().__init__(1)
        self.faces = list(faces)

    def roll(self, sides: int = 6) -> int:
        assert self.faces, "the scenario ran out of scripted dice"
        return self.faces.pop(0)


def fresh(players: int = 2, seed: int = 0, variant: str | None = None, **options):
    """A state just after setup: seats in order 0, 1, ...; seat s starts at temple 8*s; empty hands."""
    game = make("summoners-quest", players=players, variant=variant, options=options)
    st = game.new_state(seed)
    while st.phase == "temple":
        st.apply(("temple", 8 * st.active))
    st.order = list(range(players))
    for s in range(players):
        st.start[s] = st.pos[s] = 8 * s
        for c in st.hands[s]:
            st.deck.draw_pile.append(c)
        st.hands[s] = []
    st.active = 0
    st.phase = "pre"
    st.dice = ()
    st._legal = None
    return st


def put(st, seat: int, card: str, space: int) -> str:
    """Place a summon of ``card`` for ``seat`` on ``space``; returns its piece id."""
    uid = st.next_uid
    st.next_uid += 1
    st.summons[uid] = Summon(uid, card, seat, space)
    if card in st.deck.draw_pile:
        st.deck.draw_pile.remove(card)
    st._legal = None
    return f"S{uid}"


def give(st, seat: int, *cards: str) -> None:
    for c in cards:
        if c in st.deck.draw_pile:
            st.deck.draw_pile.remove(c)
        st.hands[seat].append(c)
    st._legal = None


def rolled(st, d1: int, d2: int) -> None:
    """Put the acting player in the move phase with dice ``d1 + d2``."""
    st.dice = (d1, d2)
    st.phase = "move"
    st._legal = None


def script(st, *faces: int) -> None:
    st.rng = Dice(faces)


def pair_onto_pitfall(st) -> str:
    """Seat 0's summoner and a Talos of its own, together on space 0, roll 5 + 5 and land on seat 1's
    Pitfall on space 5, where the trap-victim choice waits.  The Pitfall leaves the card piles, as a set
    trap does, so the position is whole.  Returns the Talos's piece id."""
    s = put(st, 0, "talos", 0)
    for pile in (st.deck.draw_pile, st.deck.discard_pile):
        if "pitfall" in pile:
            pile.remove("pitfall")
    st.traps[5] = ["pitfall", 1]
    rolled(st, 5, 5)
    st.apply(("move", "B" + s[1:], 5, -1))
    return s
