"""Build explicit Armies positions for rule scenarios."""

from __future__ import annotations

from boardlab.engine import make
from boardlab.games.armies.board import parse_square
from boardlab.games.armies.content import DOMAINS
from boardlab.games.armies.rules import Army


def sq(name: str) -> int:
    return parse_square(name)


def position(pieces: dict[str, str], *, active: int = 0, hands=((), ()), variant: str = "standard",
             options: dict | None = None, deck=("Teachings of Gnar",) * 10, seed: int = 0):
    """A state in ``active``'s First Opportunity with ``pieces`` ({"e1": "K", "e8": "k"}: upper case white).

    Generals get no skill; use :func:`give` to add some.  Hands and decks are as given.
    """
    g = make("armies", variant=variant, options=options or {})
    st = g.new_state(seed)
    while st.stack and st.stack[-1].kind == "setup":
        st.apply(("skills", "GEL"))
    st.forget_history()  # a position built by hand is not what its seed and actions give
    st.board = [None] * 64
    st.armies = {}
    for name, code in pieces.items():
        seat = 0 if code.isupper() else 1
        a = Army(st.next_id, seat, code.upper(), sq(name))
        st.next_id += 1
        st.armies[a.id] = a
        st.board[a.sq] = a.id
    st.hands = [list(hands[0]), list(hands[1])]
    st.revealed = [[], []]
    st.decks = [list(deck), list(deck)]
    st.discards = [[], []]
    st.strategies = []
    st.active = active
    st.phase = "opp1"
    st.major_used = False
    st.trained = 0
    st.ep = None
    st.stack.clear()
    st.pending.clear()
    st.combats = {}
    st.counts = {}
    st._legal = None
    own_cards(st)
    return st


def own_cards(st) -> None:
    """Make a hand-built position's cards its players' whole decks, so the rule property "every card is
    in exactly one place" (and loading a saved position, which checks it) holds; call it again after
    putting cards on armies by hand."""
    lists = [list(st.hands[s]) + list(st.decks[s]) + list(st.discards[s]) + list(st.removed[s]) for s in (0, 1)]
    for a in st.armies.values():
        if a.leader:
            lists[a.seat].append(a.leader)
        for n, o in a.attached:
            lists[o].append(n)
    for _u, n, o, _t in st.strategies:
        lists[o].append(n)
    st.game.deck_lists = tuple(tuple(x) for x in lists)


def at(st, name: str):
    return st.at(sq(name))


def give(army, skills: str) -> None:
    """Set an army's current and maximum skill, e.g. ``give(a, "GGL")``."""
    army.maxs = [skills.count(d) for d in DOMAINS]
    army.skill = list(army.maxs)


def touch(st) -> None:
    """Forget cached legal actions after editing a state by hand."""
    st._legal = None


def mv(a: str, b: str, promo: str = "") -> tuple:
    return ("move", sq(a), sq(b), promo)


def play(st, name: str, primary: str, target: str) -> tuple:
    return ("play", name, at(st, primary).id, sq(target))


def finish_payment(st) -> None:
    while st.stack and st.stack[-1].kind == "pay":
        st.apply(("autopay",))


class FixedRng:
    """Stand-in for the state's rng: d6 faces from a list (4-6 count 1)."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.state = 0

    def roll(self, sides=6):
        return self.faces.pop(0)

    def below(self, n):
        return self.faces.pop(0) - 1
