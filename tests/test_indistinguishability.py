"""Game-neutral indistinguishability: a seat's log tells it every change its view shows.

For a state and an observer q (every seat, the acting one included, and the
spectator), take every pair of legal actions: if both leave q the same new
events (the log entries q receives, redacted for q), they must leave q the same
view. Otherwise the board changed while the log reads as if it did not (an
event says less than everyone can see), or the view leaks what q may not know.
Each action is applied to a clone of the same state (same RNG state).

Run over seeded random playouts (one in three steered by the game's heuristic
bot, to reach the late game) of every shipped game, every player count and
every variant (issue 29, section 3). The playout itself runs with
``game.record_events`` off, so the clones' logs hold only the new events and
the check stays cheap; views are built only for actions whose events collide.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest

from boardlab.engine import make
from boardlab.games import BUILTIN

# (seed, steer) per playout: two uniform random playouts and one that the heuristic bot steers;
# a variant other than the game's first plays the first and the last
PLAYOUTS = ((1, 0.0), (2, 0.0), (3, 0.7))
STEPS = 250  # decisions per playout checked (every legal action of each)
REPEAT = {"dungeons-jewel": 4, "summoners-quest": 4, "blackfire": 2}  # cheap games: more playouts


def _canon(x) -> str:
    return json.dumps(x, sort_keys=True, separators=(",", ":"), default=str)


def violations(state, observers=None) -> list[tuple]:
    """``(decision, q, a, b, events)`` for each observer q and pair of legal actions a, b
    that leave q the same new events but a different view (one pair per event group).

    A state played with ``record_events`` off has an empty log, which keeps this
    cheap. ``observers`` defaults to every seat and the spectator (``None``).
    """
    game = state.game
    legal = state.legal_actions()
    if len(legal) < 2:
        return []
    if observers is None:
        observers = [None, *range(game.players)]
    n = {q: len(state.events(q)) for q in observers}
    recording = game.record_events
    game.record_events = True
    try:
        branches = []
        for a in legal:
            s = state.clone()
            s.apply(a)
            branches.append((a, s))
    finally:
        game.record_events = recording
    out = []
    for q in observers:
        groups: dict[str, list] = defaultdict(list)
        for a, s in branches:
            groups[_canon(s.events(q)[n[q]:])].append((a, s))
        for events, group in groups.items():
            if len(group) < 2:
                continue
            a0, s0 = group[0]
            v0 = s0.view(q)
            for a, s in group[1:]:
                if s.view(q) != v0:
                    out.append((state.decisions, q, a0, a, events))
                    break
    return out


def check_game(game, seed: int, steps: int = STEPS, steer: float = 0.0) -> list[tuple]:
    """Violations over one seeded random playout of ``steps`` decisions. With ``steer`` > 0,
    that share of the decisions is the game's heuristic bot's (seeded too), so the playout
    reaches positions uniform random play seldom does (loot shared, keys taken)."""
    from boardlab.agents import Decision, make_agent

    rng = random.Random(seed)
    recording = game.record_events
    game.record_events = False  # the playout keeps no log: each clone's log is its new events
    try:
        bots = [make_agent("heuristic", game, q, seed * 16 + q) for q in range(game.players)] if steer else []
        state = game.new_state(seed)
        found = []
        for _ in range(steps):
            if state.is_over():
                break
            found += violations(state)
            q = state.current_seat()
            if steer and rng.random() < steer:
                state.apply(bots[q].act(Decision(state, q)))
            else:
                state.apply(rng.choice(state.legal_actions()))
        return found
    finally:
        game.record_events = recording


def _cases():
    # The shipped games only: test modules register toy games (deliberately
    # simple, some with unlogged moves) whose registration depends on import order.
    for gid in sorted(BUILTIN):
        cls = type(make(gid))
        default = cls.variants[0].name if cls.variants else None
        for n in range(cls.min_players, cls.max_players + 1):
            yield pytest.param(gid, n, default, PLAYOUTS, id=f"{gid}-{n}-{default}")
        n = cls.min_players
        for v in cls.variants[1:]:  # the other variants at the smallest table (cheapest)
            yield pytest.param(gid, n, v.name, (PLAYOUTS[0], PLAYOUTS[-1]), id=f"{gid}-{n}-{v.name}")


# Known gaps the checker finds and another change fixes: (game, players, variant) -> reason.
# Marked xfail(strict=False): remove an entry once its fix has landed.
KNOWN: dict[tuple, str] = {}


@pytest.mark.parametrize("game_id,players,variant,playouts", list(_cases()))
def test_events_say_everything_a_view_shows(game_id, players, variant, playouts, request):
    if (game_id, players, variant) in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[game_id, players, variant], strict=False))
    game = make(game_id, players=players, variant=variant)
    playouts = [(seed + 10 * r, steer) for r in range(REPEAT.get(game_id, 1)) for seed, steer in playouts]
    found = [v for seed, steer in playouts for v in check_game(game, seed, steer=steer)]
    assert not found, f"{len(found)} violations (decision, observer, a, b, events), first: {found[:3]}"


# -- the checker can fail -------------------------------------------------------


def _leaky_toy():
    """The toy race (tests/toy.py) whose play event hides which card was played, while
    every view shows the score it added: two plays, one event, two boards."""
    from tests.toy import ToyGame, ToyState

    class LeakyState(ToyState):
        __slots__ = ()

        def emit(self, text, data=None, **kw):
            if " plays " in text:
                text, data = text.split(" plays ")[0] + " plays a card", {"seat": data["seat"]}
            super().emit(text, data, **kw)

    class Leaky(ToyGame):
        state_class = LeakyState

    return ToyGame(players=3), Leaky(players=3)


def test_checker_reports_a_leaky_toy_game():
    honest, leaky = _leaky_toy()
    assert not [v for seed in (1, 2, 3) for v in check_game(honest, seed, steps=40)]
    found = [v for seed in (1, 2, 3) for v in check_game(leaky, seed, steps=40)]
    assert found
    # every report is two different plays that everyone else (and the spectator) saw as one event
    for _decision, q, a, b, events in found:
        assert a[0] == b[0] == "play" and a != b
        assert "plays a card" in events
    assert {q for _d, q, *_ in found} >= {None, 1, 2}


def test_checker_reports_a_silent_move_in_the_grid_game():
    """A toy game whose move event omits where the pawn went, while the view shows it."""
    from tests.web.gridgame import GridGame, GridState

    class QuietState(GridState):
        __slots__ = ()

        def emit(self, text, data=None, **kw):
            super().emit(text.split(" moves to")[0] + (" moves" if " moves to" in text else ""), {}, **kw)

    class Quiet(GridGame):
        state_class = QuietState

    assert check_game(Quiet(players=2), 1, steps=5)
    assert not check_game(GridGame(players=2), 1, steps=5)


# -- gaps the checker found, pinned in a fixed position ---------------------------


def test_labyrinth_placement_that_ends_early_is_logged():
    """Spike Trap (T, X) with the tower open and room for one token on one tile besides it: the
    trap may only go there, the blank there or on the tower. Placing the blank there leaves the
    trap nowhere to go, so the placement ends (the board loses its 'place' prompt); placing the
    trap there lets the blank follow. Both say 'The wizard places a token on B1': the early end
    must be logged (how many tokens stay unplaced, never which), or the heroes' board says more
    than their log."""
    from tests.wizards_labyrinth.helpers import put, scenario

    s = scenario(players=3)
    g = s.game
    s.keys_taken = g.option_values["keys_needed"]  # the tower takes monsters and blanks, never traps
    heroes = {h.pos for h in s.heroes}
    free = [c for c in range(len(s.tokens)) if c != s.tower and c not in heroes]
    for c in free[1:]:
        put(s, c, *["X"] * g.token_limit)
    put(s, free[0], *["X"] * (g.token_limit - 1))  # room for one more token
    s.whand, s.mana_left = ["Spike Trap"], 5
    s._legal = None
    s.apply(("play", "Spike Trap"))
    cell = free[0]
    assert set(s.legal_actions()) == {("place", cell, "T"), ("place", cell, "X"), ("place", s.tower, "X")}
    assert not violations(s)
    n = len(s.events(1))
    s.apply(("place", cell, "X"))
    texts = [e["text"] for e in s.events(1)[n:]]
    assert texts[-1] == "No tile can take the last token of Spike Trap (at most 3 tokens on a tile, none on a hero's tile)"
    assert not s.stack or s.stack[-1].kind != "place"


def test_armies_blood_sacrifice_says_whose_leader():
    """Two armies led by the same card: sacrificing either one read 'Blood Cultist sacrifices Shield
    Bearers', while the board shows which army lost its leader. The event names the square."""
    from tests.armies.helpers import at, give, position, touch

    st = position({"e1": "K", "e8": "k", "a1": "R", "h1": "R", "a2": "P"})
    cult, one, two = at(st, "a1"), at(st, "h1"), at(st, "a2")
    cult.leader, one.leader, two.leader = "Blood Cultist", "Shield Bearers", "Shield Bearers"
    give(cult, "E")
    touch(st)
    both = {("ability", cult.id, "blood_sacrifice", one.id), ("ability", cult.id, "blood_sacrifice", two.id)}
    assert both <= set(st.legal_actions())
    assert not violations(st)


def test_labyrinth_loot_equipped_at_once_is_named():
    """Taking a loot card from a shared draw: equipment goes on the board at once, so 'Hero 1 takes a
    loot card' (said of a sword and of a potion alike) must name it. A lone hero's loot says which
    cards it equipped for the same reason; the rest stay hidden from the wizard."""
    from boardlab.engine import Prompt
    from tests.wizards_labyrinth.helpers import scenario

    s = scenario(players=3)
    s.stack.append(Prompt(1, "loot", {"cards": ["Short Sword", "Health Potion"], "keep": 2, "to": [1, 2]}))
    s._legal = None
    assert not violations(s)
    n = len(s.events(0))
    s.apply(("take", 0, 1))
    assert [e["text"] for e in s.events(0)[n:]] == ["Hero 1 takes Short Sword and equips it"]

    s = scenario(players=3)
    s.ldeck.draw_pile[-2:] = ["Health Potion", "Shield"]  # drawn from the end
    n = len(s.events(0))
    s.loot(s.heroes[0].pos, 2, 2, [1])
    assert [e["text"] for e in s.events(0)[n:]] == ["Hero 1 loots 2 card(s), equipping Shield"]
    assert s.heroes[0].equipment == ["Shield"] and s.heroes[0].hand == ["Health Potion"]
