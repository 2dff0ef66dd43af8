"""The Armies log says what everyone can see (issue 16 item 3)."""

from __future__ import annotations

import pytest

from boardlab.engine import make


def test_training_names_the_piece_trained():
    """Found by tests/test_indistinguishability.py: 'White plays Teachings of Lorin.' hid the army the board shows."""
    for seed in range(40):
        s = make("armies").new_state(seed)
        for _ in range(60):
            trains = [a for a in s.legal_actions() if a[0] == "train"]
            if trains:
                a = trains[0]
                sq = s.armies[a[2]].sq
                n = len(s.events(None))
                s.apply(a)
                ev = s.events(None)[n]
                assert ev["data"]["sq"] == sq and " on the " in ev["text"], ev
                return
            if s.is_over():
                break
            s.apply(s.legal_actions()[0])
    raise AssertionError("no training card came up")


def test_each_payment_is_logged_with_its_piece_and_domain():
    """Found by tests/test_indistinguishability.py: a payment changed the board and logged nothing."""
    for seed in range(40):
        s = make("armies").new_state(seed)
        for _ in range(80):
            pays = [a for a in s.legal_actions() if a[0] == "pay"]
            if pays:
                a = pays[0]
                sq = s.armies[a[1]].sq
                n = len(s.events(None))
                s.apply(a)
                ev = s.events(None)[n]
                assert ev["data"]["sq"] == sq and ev["data"]["domain"] == a[2] and " pays 1 " in ev["text"], ev
                return
            if s.is_over():
                break
            s.apply(s.legal_actions()[0])
    raise AssertionError("no payment came up")


def _silent_choices_position():
    """White's First Opportunity with Unfavorable War in play, a Broken Supply Chain on a white army and two
    cards in hand: pass, exempt and break are all legal."""
    from tests.armies.helpers import at, give, position, touch

    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r"}, hands=(["Mind Fog", "Ambush"], []))
    give(at(st, "e1"), "LLG")
    give(at(st, "d4"), "G")
    at(st, "d4").attached.append(("Broken Supply Chain", 1))
    st.strategies.append([st.next_id, "Unfavorable War", 1, 0])
    st.next_id += 1
    touch(st)
    return st


@pytest.mark.seed("armies:306.1", "armies:386.1")
def test_exempt_pass_and_break_leave_different_logs():
    """Issue 29 section 3: choosing 'exempt' or 'pass' left the opponent the same (empty) log but a different
    board (the pay prompt appears); 'break' likewise (the discard prompt). Every choice now says what it did."""
    st = _silent_choices_position()
    legal = st.legal_actions()
    uid = st.strategies[0][0]
    d4 = st.at(27).id
    choices = [("pass",), ("exempt", uid), ("break", d4)]
    assert all(c in legal for c in choices)
    texts = {}
    for c in choices:
        s = st.clone()
        n = len(s.events(1))
        s.apply(c)
        texts[c[0]] = [e["text"] for e in s.events(1)[n:]]
    assert texts["pass"] == ["White does not move."]
    assert texts["exempt"] == ["White spends the major action to be spared Unfavorable War this turn (1 skill to pay)."]
    assert texts["break"] == ["White spends the major action to destroy Broken Supply Chain on the queen on d4 "
                              "(2 cards to discard)."]
    for q in (None, 0, 1):  # the same new events must mean the same view (tests/test_indistinguishability.py)
        seen = {}
        for a in legal:
            s = st.clone()
            n = len(s.events(q))
            s.apply(a)
            new = repr([(e.get("text"), e.get("data")) for e in s.events(q)[n:]])
            if new in seen:
                assert s.view(q) == seen[new][1], (q, seen[new][0], a)
            else:
                seen[new] = (a, s.view(q))


def test_window_pass_and_cavalry_stop_are_logged():
    """A response window or a cavalry chain closes on the board when declined; the log says so."""
    from tests.armies.helpers import at, give, mv, position, touch

    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r", "c6": "n"}, hands=([], ["Hold the Line"]),
                  options={"windows": "always"})
    give(at(st, "d7"), "LL")
    touch(st)
    st.apply(mv("d4", "d7"))
    assert st.stack[-1].kind == "attack_window"
    n = len(st.events(0))
    st.apply(("pass",))
    assert st.events(0)[n]["text"] == "Black does not respond."
    # a cavalry chain declined
    from tests.armies.helpers import FixedRng

    st = position({"e1": "K", "e8": "k", "a1": "R", "a3": "p", "a6": "p"})
    rook = at(st, "a1")
    rook.leader, rook.spent = "Heavy Cavalry", False
    touch(st)
    st.rng = FixedRng([6, 6, 1, 1, 1, 1])  # margin 3: the chain prompt
    st.apply(mv("a1", "a3"))
    assert st.stack[-1].kind == "chain"
    n = len(st.events(1))
    st.apply(("stop",))
    assert st.events(1)[n]["text"] == "The cavalry stops on a3."


@pytest.mark.seed("armies:386.1")
def test_spending_a_politician_against_unfavorable_war_is_logged():
    """'(Global Spend a Politician): The effect above does not apply this turn.' No sample leader is a
    Politician, so the test gives Shield Bearers that type; spending it spares its owner and says so."""
    import dataclasses

    from tests.armies.helpers import at, give, position, touch

    st = position({"e1": "K", "e8": "k", "d4": "Q"})
    cards = dict(st.game.cards)
    cards["Shield Bearers"] = dataclasses.replace(cards["Shield Bearers"], line="Elite Leaders - Politician")
    st.game.cards = cards
    give(at(st, "e1"), "LL")
    at(st, "d4").leader, at(st, "d4").spent = "Shield Bearers", False
    uid = st.next_id
    st.strategies.append([uid, "Unfavorable War", 1, 0])
    st.next_id += 1
    touch(st)
    action = ("politician", uid, at(st, "d4").id)
    assert action in st.legal_actions()
    n = len(st.events(1))
    st.apply(action)
    assert st.events(1)[n]["text"] == "White spends the politician Shield Bearers on d4: spared Unfavorable War this turn."
    assert at(st, "d4").spent and not st.major_used
    st.apply(("pass",))
    st.apply(("end",))
    assert at(st, "e1").maxs == [0, 0, 2, 0, 0]  # spared: no point lost
