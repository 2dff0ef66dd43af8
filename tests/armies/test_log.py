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
