"""Game-neutral indistinguishability: a seat receives exactly what it may know, no more and no less.

For a state and an observer q (every seat, the acting one included, and the
spectator), take every pair of legal actions, each applied to a clone of the
same state (same RNG state). Two checks, one in each direction:

* the log says everything the view shows (:func:`violations`): if both actions
  leave q the same new events (the log entries q receives, redacted for q),
  they must leave q the same view. Otherwise the board changed while the log
  reads as if it did not (an event says less than everyone can see), or the
  view leaks what q may not know;
* nothing q receives says more than its view (:func:`received_leaks`): if two
  actions of one kind by another seat leave q the same view (what q may know)
  at every step the log narrates, everything q receives must be the same
  (unless the two leave the whole game the same, or the difference is one of
  the few public narrations of ``PUBLIC_NARRATION``, each with its reason):
  every new event with its text and data, and the web snapshot
  the page of q is sent (its view, its scene, and its action labels when q
  acts next). Otherwise q's stream depends on which of two actions it cannot
  tell apart was taken: a secret in the log ("Player 1 bids 13", logged in
  public before Player 2 has bid), in a label or in the scene. The terminal
  and the browser render only these payloads, so their text cannot differ
  either.

Run over seeded random playouts (one in three steered by the game's heuristic
bot, to reach the late game) of every shipped game, every player count and
every variant (issue 29, section 3). The playout itself runs with
``game.record_events`` off, so the clones' logs hold only the new events and
the check stays cheap; views are built only for actions whose events collide.
"""

from __future__ import annotations

import json
import random
import re
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


def received(state, q, since: int) -> str:
    """Everything observer ``q`` receives in ``state`` after its first ``since`` events, canonical: the web snapshot
    of q's page (view, scene, action labels when q acts; built from a bare state, no server) and the new events."""
    from boardlab.web.matches import snapshot

    snap = snapshot(None, q, state, events=False)
    snap["events"] = state.events(q)[since:]
    return _canon(snap)


def _received_beyond_view(state, q, since: int) -> str:
    """What of :func:`received` is not a function of q's view: the new events, and when q acts next its action labels
    (the scene is ``game.scene(view, actions)``, so two equal views give equal scenes unless the actions differ)."""
    acting = state.current_seat() == q and q is not None
    return _canon([state.events(q)[since:], state.labeled_actions() if acting else None])


def _first_difference(a: str, b: str) -> str:
    """The first top-level key (and for events, the first differing event's text) where two received streams differ."""
    da, db = json.loads(a), json.loads(b)
    for key in sorted(set(da) | set(db)):
        if da.get(key) != db.get(key):
            if key == "events":
                for ea, eb in zip(da[key], db[key]):
                    if ea != eb:
                        return f"events: {ea.get('text')!r} / {eb.get('text')!r}"
                return f"events: {len(da[key])} / {len(db[key])} new events"
            return key
    return ""


def received_leaks(state, observers=None) -> list[tuple]:
    """``(decision, q, a, b, what)`` for each observer q other than the acting seat (which knows its own choice)
    and pair of legal actions a, b that q cannot tell apart but that leave q a different received stream
    (:func:`received`): ``what`` names the first part that differs (``events: 'Player 1 bids 3' / 'Player 1 bids
    2'``, ``scene``, ``actions``). One pair per group.

    q cannot tell a and b apart when its view is the same at every step the log narrates: at each event the action
    emits and after it. (The view after the action alone is not enough: a warrior that moves and is then killed
    leaves the same board wherever it moved, and the log rightly says where.) What kind of action a seat takes
    (a bid, a roll, using an item: the action's first item) is public, so only actions of one kind are compared:
    their other items (which card, which bid) are what may be secret. Two actions that leave the whole game the same
    (:func:`_whole`) hide nothing from anyone, so their words may differ."""
    game = state.game
    legal = state.legal_actions()
    if len(legal) < 2:
        return []
    actor = state.current_seat()
    if observers is None:
        observers = [None, *range(game.players)]
    observers = [q for q in observers if q is None or q != actor]
    if not observers:
        return []
    n = {q: len(state.events(q)) for q in observers}
    recording = game.record_events
    game.record_events = True
    try:
        # first the view after each action (cheap); only actions of one kind that leave some q the same view are
        # applied again with the view at every step the log narrates (the trace refines the view after)
        after = []
        for a in legal:
            s = state.clone()
            s.apply(a)
            after.append((a, s, {q: _canon(s.view(q)) for q in observers}))
        suspects = set()
        for q in observers:
            groups: dict[str, list] = defaultdict(list)
            for k, (a, _s, views) in enumerate(after):
                groups[_canon([a[0], views[q]])].append(k)
            suspects.update(k for g in groups.values() if len(g) > 1 for k in g)
        traced = {k: _traced(state, after[k][0], observers) for k in sorted(suspects)}
    finally:
        game.record_events = recording
    out = []
    for q in observers:
        groups = defaultdict(list)
        for k, (s, keys) in traced.items():
            a = after[k][0]
            groups[_canon([a[0], keys[q]])].append((a, s))  # what kind of action a player takes is public
        for group in groups.values():
            if len(group) < 2:
                continue
            a0, s0 = group[0]
            r0 = _received_beyond_view(s0, q, n[q])
            for a, s in group[1:]:
                # the same view: compare what is not a function of it, then (to name it) the whole received stream
                if _received_beyond_view(s, q, n[q]) != r0 and _whole(s) != _whole(s0):  # same whole game: public words
                    out.append((state.decisions, q, a0, a, _first_difference(received(s0, q, n[q]), received(s, q, n[q]))))
                    break
    return out


def _traced(state, action, observers) -> tuple:
    """``state`` after ``action`` (on a clone) and, per observer, its views at every event the action emits and after
    it, canonical."""
    cls = type(state)
    own = "emit" in cls.__dict__
    original = cls.emit
    seen: list[dict] = []

    def emit(self, *args, **kw):  # the view of every observer at each step the log narrates
        try:
            seen.append({q: _canon(self.view(q)) for q in observers})
        except Exception as exc:  # a view that cannot be built mid-action: this branch is told apart from all others
            seen.append({q: f"unviewable {id(self)} {exc!r}" for q in observers})
        return original(self, *args, **kw)

    cls.emit = emit
    try:
        s = state.clone()
        s.apply(action)
    finally:
        if own:
            cls.emit = original
        else:
            del cls.emit
    return s, {q: _canon([v[q] for v in seen] + [_canon(s.view(q))]) for q in observers}


def _whole(state) -> str:
    """The whole game (every field, the stack and the RNG, not the log): two actions that leave it the same differ
    only in how the log tells the choice (Mind Rot on a summoner or on the square it stands on), which hides nothing."""
    doc = state.to_json()
    return _canon({k: doc[k] for k in ("rng", "turn", "decisions", "truncated", "stack", "data")})


def check_game(game, seed: int, steps: int = STEPS, steer: float = 0.0, checks=None) -> list[tuple]:
    """Violations over one seeded random playout of ``steps`` decisions. With ``steer`` > 0,
    that share of the decisions is the game's heuristic bot's (seeded too), so the playout
    reaches positions uniform random play seldom does (loot shared, keys taken). ``checks`` defaults to
    both directions (:func:`violations` and :func:`received_leaks`)."""
    from boardlab.agents import Decision, make_agent

    checks = checks if checks is not None else (violations, received_leaks)

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
            for check in checks:
                found += check(state)
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


# Public narration the view need not keep, by game: a difference between two received streams whose differing
# event texts both match the pattern is no leak. Each entry says why.
PUBLIC_NARRATION = {
    # The wizard picks a token by its place in a tile's stack, which every seat sees: "the 2nd of 3 tokens on F5
    # (face down)" names a place, never what lies there (face-down tokens look alike), and after the swap the two
    # stacks look the same whichever token went, so the view keeps no trace of the place.
    "wizards-labyrinth": re.compile(r"Switcheroo: Hero \d+ swaps places with the \d+(st|nd|rd|th) of \d+ tokens on \w+ \(face down\)"),
}


def _public_narration(game_id: str, what: str) -> bool:
    pattern = PUBLIC_NARRATION.get(game_id)
    m = re.fullmatch(r"events: '(.*)' / '(.*)'", what)
    return bool(pattern and m and pattern.fullmatch(m.group(1)) and pattern.fullmatch(m.group(2)))


# Known gaps the checker finds and another change fixes: (game, players, variant) -> reason.
# Marked xfail(strict=False): remove an entry once its fix has landed.
KNOWN: dict[tuple, str] = {}


@pytest.mark.parametrize("game_id,players,variant,playouts", list(_cases()))
def test_events_say_everything_a_view_shows(game_id, players, variant, playouts, request):
    if (game_id, players, variant) in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[game_id, players, variant], strict=False))
    game = make(game_id, players=players, variant=variant)
    playouts = [(seed + 10 * r, steer) for r in range(REPEAT.get(game_id, 1)) for seed, steer in playouts]
    found = [v for seed, steer in playouts for v in check_game(game, seed, steer=steer) if not _public_narration(game_id, v[4])]
    assert not found, f"{len(found)} violations (decision, observer, a, b, events or what differs), first: {found[:3]}"


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


def _bid_playouts(game, check):
    return [v for seed in range(1, 6) for v in check_game(game, seed, steps=12, checks=(check,))]


def test_the_sealed_bid_toy_passes_both_checks():
    from tests.toy_leaks import BidGame

    assert not _bid_playouts(BidGame(), violations)
    assert not _bid_playouts(BidGame(), received_leaks)


def test_a_bid_in_the_public_log_is_caught():
    """The designer's fourth leak (issue 46): "Player 1 bids 13" in the public log before Player 2 has bid. The
    views agree (a face-down card), so only the check of everything a seat receives sees it."""
    from tests.toy_leaks import LogLeak

    assert not _bid_playouts(LogLeak(), violations)
    found = _bid_playouts(LogLeak(), received_leaks)
    assert found
    for _decision, q, a, b, what in found:
        assert q != 0 and a[0] == b[0] == "bid" and a != b  # seat 0's bid, seen by seat 1 and the spectator
        assert what.startswith("events: 'Player 1 bids ")
    assert {q for _d, q, *_ in found} == {None, 1}


def test_a_bid_shown_in_the_view_is_caught_without_resampling():
    """The face-down bid in the view: the log agrees ("Player 1 bids") while the views differ."""
    from tests.toy_leaks import EarlyLeak, ViewLeak

    for leaky in (ViewLeak(), EarlyLeak()):
        found = _bid_playouts(leaky, violations)
        assert found and {q for _d, q, *_ in found} == {None, 1}
        assert all("Player 1 bids" in events for *_, events in found)


def test_the_received_stream_check_sees_labels_and_scenes():
    """A leak outside the log: seat 1's action labels name seat 0's face-down bid."""
    from tests.toy_leaks import BidGame, BidState

    class LabelState(BidState):
        __slots__ = ()

        def describe(self, action):
            return super().describe(action) + (f" against {self.bids[0]}" if self.bids[0] is not None else "")

    class Labels(BidGame):
        state_class = LabelState

    found = _bid_playouts(Labels(), received_leaks)
    assert found and {what for *_, what in found} == {"actions"} and {q for _d, q, *_ in found} == {1}


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


def test_armies_card_played_through_an_army_shows_on_the_board():
    """Playing a card through one army or another onto the same square: 'Black plays Spirit of Fire through the
    bishop on c8' or '... through the queen on d8' told everyone which army paid, while the board's pending payment
    named only the card and the square (found by received_leaks). The board names the army too."""
    game = make("armies", players=2)
    rng = random.Random(1)
    state = game.new_state(1)
    pair = None
    for _ in range(400):
        if state.is_over():
            break
        plays = [a for a in state.legal_actions() if a[0] == "play" and len(a) == 4]
        by = defaultdict(list)
        for a in plays:
            by[(a[1], a[3])].append(a)
        pair = next((v[:2] for v in by.values() if len(v) > 1), None)
        if pair:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert pair, "no card with two armies to play it through in this playout"
    other = 1 - state.current_seat()
    views = []
    for a in pair:
        s = state.clone()
        s.apply(a)
        views.append(s.view(other)["state"]["prompt"])
    assert views[0]["primary"] == pair[0][2] and views[1]["primary"] == pair[1][2]
    assert not received_leaks(state)


def test_the_labyrinths_public_narration_is_the_switcheroo_place_only():
    """The one narration the received-stream check lets through (PUBLIC_NARRATION) is real and narrow: the wizard's
    choice between two face-down tokens differs only in the place it names."""
    from tests.wizards_labyrinth.helpers import put, switcheroo_played

    s = switcheroo_played()
    put(s, 20, "X")  # a third token: the tile holds a blank, a level 1 monster and a blank, all face down to the heroes
    s.apply(("hero", 1))
    found = received_leaks(s)
    assert found and all(_public_narration("wizards-labyrinth", what) for *_, what in found), found
    assert not _public_narration("wizards-labyrinth", "events: 'Hero 1 takes Short Sword' / 'Hero 1 takes Shield'")
    assert not _public_narration("armies", found[0][4])


def test_labyrinth_hero_shows_the_tile_it_came_through():
    """A hero moving two tiles to A3 through one tile or another: the log's data said which ("via"), and the hero
    retreats there after a lost fight, while the board did not show it (found by received_leaks). The board shows
    each hero's ``prev``."""
    game = make("wizards-labyrinth", players=3)
    for seed in range(1, 30):
        rng = random.Random(seed)
        state = game.new_state(seed)
        for _ in range(300):
            if state.is_over():
                break
            by_dest = defaultdict(list)
            for a in state.legal_actions():
                if a[0] == "move2":
                    by_dest[a[-1]].append(a)
            for pair in (v[:2] for v in by_dest.values() if len(v) > 1):
                after = []
                for a in pair:
                    s = state.clone()
                    s.apply(a)
                    after.append(s)
                hero = [h for h in after[0].view(None)["state"]["heroes"] if h["pos"] == pair[0][-1] and h["prev"] is not None]
                if hero:  # the move was revealed at once (the last hero to choose)
                    prevs = [[h["prev"] for h in s.view(None)["state"]["heroes"] if h["seat"] == hero[0]["seat"]][0] for s in after]
                    assert prevs == [pair[0][1], pair[1][1]]
                    assert not received_leaks(state)
                    return
            state.apply(rng.choice(state.legal_actions()))
    pytest.fail("no revealed two-tile move with two ways to its tile in these playouts")
