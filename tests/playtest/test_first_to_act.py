"""Results rows record who acted first; first-player advantage uses it, not seat 0."""

from boardlab.playtest import plan_run
from boardlab.playtest.metrics import first_player_advantage
from boardlab.playtest.simulate import play_row


def test_blackfire_rows_record_who_acted_first():
    # Blackfire rolls colours, so the seat that moves first varies from game to game.
    cfg = plan_run("blackfire", games=12, agents=["random"], seed=3)
    rows = [play_row(cfg, i) for i in range(12)]
    firsts = {r["first_seat"] for r in rows}
    assert firsts <= {0, 1} and len(firsts) == 2, firsts
    # green always moves first once colours are rolled
    assert all(r["roles"][r["first_seat"]] == "green" for r in rows)
    fpa = first_player_advantage(rows, 2)
    assert fpa["measures"] == "first to act"
    wins = sum(1 for r in rows if r["first_seat"] in r["winners"])
    assert abs(fpa["first_rate"] - wins / 12) < 1e-12


def test_old_rows_without_first_seat_are_labelled_seat_0():
    rows = [{"winners": [0]}, {"winners": [1]}, {"winners": [0]}]
    fpa = first_player_advantage(rows, 2)
    assert fpa["measures"] == "seat 0" and abs(fpa["first_rate"] - 2 / 3) < 1e-12
