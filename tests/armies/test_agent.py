"""The heuristic agent plays its cards, finishes games, and the evaluation hooks behave."""

from __future__ import annotations

from boardlab.engine import make
from boardlab.agents.runner import play_game
from boardlab.games.armies.game import ArmiesGame

from .helpers import at, give, mv, position, touch


def test_heuristic_plays_cards_not_only_moves():
    game = make("armies", options={"max_turns": 60})
    game.record_events = False
    played = [set(), set()]
    for seed in (1, 2):
        st, rec = play_game(game, ["heuristic", "heuristic"], seed)
        for key, counts in st.metrics().items():
            if key.startswith("card:"):
                for seat in (0, 1):
                    if counts[seat]:
                        played[seat].add(key[5:])
    cards = game.cards
    for seat in (0, 1):
        kinds = {cards[n].type for n in played[seat]}
        assert "training" in kinds and kinds - {"training"}, played[seat]


def test_heuristic_takes_a_free_general_hit_and_escapes_attacks():
    from boardlab.agents import Decision, make_agent

    st = position({"e1": "K", "e8": "k", "e3": "R", "a7": "p"}, active=0, variant="chess")
    give(at(st, "e8"), "G")
    touch(st)
    agent = make_agent("heuristic", st.game, 0, 1)
    assert agent.act(Decision(st, 0)) == mv("e3", "e8")  # the General cannot pay: this wins
    st = position({"e1": "K", "h8": "k", "e3": "r", "a2": "P"}, active=0, variant="chess")
    give(at(st, "e1"), "GEL")
    touch(st)
    action = make_agent("heuristic", st.game, 0, 1).act(Decision(st, 0))
    assert action[0] == "move" and action[1] == at(st, "e1").sq and (action[2] & 7) != 4


def test_evaluate_features_and_personas():
    st = make("armies").new_state(0)
    assert st.evaluate(0) == st.evaluate(1) == 0.5 or abs(st.evaluate(0) + st.evaluate(1) - 1) < 1e-9
    f = st.features(0)
    for persona in ArmiesGame.personas.values():
        assert set(persona) <= set(f)
    st2 = position({"e1": "K", "e8": "k", "d1": "Q"}, variant="chess")
    assert st2.evaluate(0) > 0.5 > st2.evaluate(1)


def test_fast_clone_is_exact_and_independent():
    from boardlab.agents import Decision, make_agent

    game = make("armies")
    st = game.new_state(4)
    agents = [make_agent("random", game, s, s) for s in (0, 1)]
    for _ in range(60):
        if st.is_over():
            break
        c = st.clone()
        assert c.dumps() == st.dumps()
        for a in c.armies.values():
            a.skill[0] += 1
            a.attached.append(("Mind Fog", 0))
        c.hands[0].append("x")
        assert st.dumps() != c.dumps() and all("x" not in h for h in st.hands)
        st.apply(agents[st.current_seat()].act(Decision(st)))


def test_heuristic_ranking_starts_with_its_move_and_covers_every_legal_action():
    """ranked() (the search's progressive unpruning order) = the agent's own move, then the rest by score."""
    from boardlab.agents import Decision, make_agent

    game = make("armies")
    game.record_events = False
    st = game.new_state(7)
    players = [make_agent("heuristic", game, s, seed=1) for s in range(2)]
    checked = 0
    while not st.is_over() and st.decisions < 120:
        seat = st.current_seat()
        legal = st.legal_actions()
        if len(legal) > 1:
            a = make_agent("heuristic", game, seat, seed=st.decisions)
            b = make_agent("heuristic", game, seat, seed=st.decisions)
            order = b.ranked(Decision(st))
            assert sorted(map(repr, order)) == sorted(map(repr, legal))
            assert order[0] == a.act(Decision(st))
            checked += 1
        st.apply(players[seat].act(Decision(st)))
    assert checked > 20
