"""The Armies log says what everyone can see (issue 16 item 3)."""

from __future__ import annotations

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
