"""Scenario helpers: a game past setup with an empty board, and scripted dice."""

from __future__ import annotations

from boardlab.engine import Rng, make


class Dice(Rng):
    """An Rng whose d20 rolls come from a script (then from the seeded stream)."""

    def __init__(self, rolls, seed: int = 1) -> None:
        super().__init__(seed)
        self.script = list(rolls)

    def roll(self, sides: int = 6) -> int:
        if self.script:
            return self.script.pop(0)
        return super().roll(sides)


def scenario(players: int = 3, variant: str = "final", seed: int = 0, **options):
    """A state at the wizard's first main decision, with no tokens and an empty wizard hand.

    Setup takes the first legal choice each time: on 5x5 the tower is C3 (cell 12), the
    entrance faces N (cell 7) and the keys are B1, C1, D1 (cells 1, 2, 3).
    """
    game = make("wizards-labyrinth", players=players, variant=variant, options=options)
    s = game.new_state(seed)
    while s.stack and s.stack[-1].kind != "main":
        s.apply(s.legal_actions()[0])
    for c in range(len(s.tokens)):
        s.tokens[c] = []
    s.wdeck.draw_pile.extend(s.whand)
    s.whand = []
    s._legal = None
    return s


def to_moves(s):
    """End the wizard's turn: the heroes' movement decisions begin."""
    s.apply(("end",))
    return s


def move_all(s, moves: dict):
    """Answer every hero movement prompt: ``moves`` maps seat -> action (default stay)."""
    while s.stack and s.stack[-1].kind == "move":
        seat = s.stack[-1].seat
        s.apply(moves.get(seat, ("stay",)))
    return s


def put(s, cell: int, *kinds: str, face_up: bool = False):
    from boardlab.engine import Token

    for k in kinds:
        s.tokens[cell].append(Token(k, face_up, 1))
    s._legal = None


def switcheroo_played():
    """The wizard has just played Switcheroo: Hero 1 alone on his tile, a level 1 monster and a blank on tile 20."""
    s = scenario()
    s.hero(2).pos = 1  # Hero 1 alone on his tile (ledger 44)
    put(s, 20, "X", "m1")
    s.whand = ["Switcheroo"]
    s.mana_left = 99
    s._legal = None
    s.apply(("play", "Switcheroo"))
    return s
