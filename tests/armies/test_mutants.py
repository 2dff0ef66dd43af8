"""Tests that kill surviving mutants of Armies' rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

import pytest

from .helpers import at, finish_payment, give, play, position, sq, touch


@pytest.mark.seed("armies:362.1")
def test_a_double_marching_black_pawn_may_double_step_onto_the_first_rank_and_promote():
    # kills moves.py:49 `0 <= two < 64` -> `1 <= two < 64`: a black pawn on a3 double-steps to a1 (square 0)
    st = position({"e8": "k", "e1": "K", "a3": "p", "h3": "p"}, active=1, hands=((), ["Double March"]))
    give(at(st, "e8"), "GG")
    touch(st)
    st.apply(("strategy", "Double March"))
    finish_payment(st)
    targets = {(a[1], a[2]) for a in st.legal_actions() if a[0] == "move"}
    assert (sq("h3"), sq("h1")) in targets
    assert (sq("a3"), sq("a1")) in targets  # a1 is square 0
    promos = {a[3] for a in st.legal_actions() if a[0] == "move" and a[1:3] == (sq("a3"), sq("a1"))}
    assert promos and "" not in promos  # reaching the last rank promotes


@pytest.mark.parametrize("seat", [0, 1])
def test_a_player_who_must_draw_from_an_empty_deck_loses_under_deck_out_lose(seat):
    # kills rules.py:257 `end_game(1 - seat, ...)` -> `end_game(1 * seat, ...)` (the player who decked out won);
    # tests/armies/test_turn.py::test_deck_out_options checks only that the game ends
    st = position({"e1": "K", "e8": "k"}, options={"deck_out": "lose"}, deck=())
    if seat == 1:
        st.decks[0] = ["Mind Fog"]
    st.apply(("pass",))
    st.apply(("end",))
    if seat == 1:
        st.apply(("pass",)) if st.phase == "opp1" else None
        st.apply(("end",))
    assert st.is_over()
    assert st.winner == 1 - seat


def test_a_position_loaded_during_an_attack_window_resolves_the_pending_roll_as_the_live_one():
    # kills rules.py:371 `op == "roll"` -> `op is "roll"` (seed 2): the live state's frames hold the code's own
    # (interned) "roll", but a state document read back holds an equal, distinct string, so the loaded position
    # skipped the combat's roll; a position without a history must play on exactly as the live one
    import json
    import random

    from boardlab.engine import State, make

    for seed in range(30):
        live = make("armies", variant="hidden-windows").new_state(seed)
        rng = random.Random(seed)
        while not live.is_over() and live.decisions < 400:
            if live.stack and live.stack[-1].kind == "attack_window" and any(f["op"] == "roll" for f in live.pending):
                break
            legal = live.legal_actions()
            live.apply(legal[rng.randrange(len(legal))])
        else:
            continue
        doc = json.loads(live.dumps())
        del doc["history"], doc["digest"]
        loaded = State.from_json(doc)
        for _ in range(6):
            if live.is_over():
                break
            action = live.legal_actions()[0]
            assert loaded.legal_actions() == live.legal_actions()
            live.apply(action)
            loaded.apply(action)
            assert json.loads(loaded.dumps())["data"] == json.loads(live.dumps())["data"]
        return
    raise AssertionError("no attack window with a pending roll in 30 random games")


def test_this_turns_bonus_is_named_in_an_offense_sum_and_never_in_a_defense_sum():
    # kills combat.py:93 `stat == "offense"` -> `stat < "offense"` (seed 2): "defense" sorts before "offense", so
    # the combat log's defense sum named the offense-only bonus (`temp`, "offense until end of turn") and no
    # longer added up to the defense it explains
    st = position({"e1": "K", "e8": "k", "a1": "R"})
    army = at(st, "a1")
    army.temp = 2
    offense, defense = st._stat_sum(army, "offense"), st._stat_sum(army, "defense")
    assert "this turn's bonus 2" in offense, offense
    assert "bonus" not in defense, defense


def test_the_starting_armies_are_numbered_from_one_in_layout_order():
    # kills rules.py:85 `self.next_id = 1` -> `2` (seed 2): army ids are in the actions ("play", card, army id,
    # square), so recorded games and state documents name armies by them; the tests looked armies up by square
    from boardlab.engine import make
    from boardlab.games.armies import board as B

    for variant in ("standard", "chess"):
        st = make("armies", variant=variant).new_state(0)
        layout = list(B.initial_layout())
        assert sorted(st.armies) == list(range(1, len(layout) + 1))
        assert [(a.seat, a.kind, a.sq) for _, a in sorted(st.armies.items())] == \
            [(seat, kind, sq) for seat, kind, sq in layout]
        assert st.next_id == len(layout) + 1


def test_an_edited_defender_card_playable_on_ones_own_turn_is_not_offered_there(tmp_path):
    # kills cards.py:174 `ctx is None or ctx[0] != "after_dice" or ...` -> `ctx is None and ...` (seed 2): a card
    # aimed at the defending army has no defender outside an after-dice window; the shipped deck's only such card
    # (Hold the Line) is after-dice only, but content.py accepts one with an "own" window, where ctx is None and
    # the mutant raised TypeError
    import json

    from boardlab.games.armies.content import CARDS_FILE

    doc = json.loads(CARDS_FILE.read_text(encoding="utf-8"))
    card = next(c for c in doc["cards"] if c["name"] == "Hold the Line")
    card["windows"] = ["own", "after_dice"]
    p = tmp_path / "cards.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    st = position({"e1": "K", "e8": "k", "d4": "R", "d5": "p"}, hands=(("Hold the Line",), ()),
                  options={"cards_file": str(p)})
    give(at(st, "e1"), "GELTSGELTS")
    st._legal = None
    plays = [a for a in st.legal_actions() if a[0] == "play" and a[1] == "Hold the Line"]
    assert plays == []


def test_disruption_counters_a_pending_play_whose_frame_was_read_back_from_a_document():
    # kills cards.py:628 `f["op"] == "resolve"` -> `f["op"] is "resolve"` (seed 2): the frames the code builds
    # hold its own (interned) "resolve", but a state document read back holds an equal, distinct string (see
    # rules.py:371's test); here the pending frames get such strings, and Disruption must still counter the play
    import sys

    from .helpers import play

    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r", "d8": "q"},
                  hands=(["Rain of Arrows", "Disruption"], ["Disruption"]))
    give(at(st, "d4"), "TTTSS")
    give(at(st, "d8"), "SS")
    touch(st)
    st.apply(play(st, "Rain of Arrows", "d4", "d7"))
    finish_payment(st)
    assert st.stack[-1].kind == "card_window" and st.stack[-1].seat == 1
    for f in st.pending:  # what json.loads gives: equal strings, not the code's own objects
        f["op"] = "".join(list(f["op"]))
    assert any(f["op"] == "resolve" and f["op"] is not sys.intern("resolve") for f in st.pending)
    st.apply(("play", "Disruption", at(st, "d8").id, sq("d7")))
    finish_payment(st)
    assert at(st, "d7") is not None, "Rain of Arrows resolved although Disruption countered it"
    assert st.counts["rule:disrupted"] == [1, 0]


def test_without_a_trace_may_remove_one_of_your_own_armies():
    # kills cards.py:176 `kind == "enemy"` -> `kind <= "enemy"` (seed 3): "army" sorts before "enemy", so
    # 'Target Army' was read as 'target enemy army' and one's own armies were refused
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d2": "R", "d7": "r"}, hands=(["Without a Trace"], []))
    give(at(st, "d4"), "EEEE")
    touch(st)
    legal = st.legal_actions()
    assert play(st, "Without a Trace", "d4", "d7") in legal
    assert play(st, "Without a Trace", "d4", "d2") in legal  # "Target Army": any army but a General
    st.apply(play(st, "Without a Trace", "d4", "d2"))
    finish_payment(st)
    assert at(st, "d2") is None


def test_only_the_players_own_armies_are_offered_a_rest():
    # kills rules.py:440 `a.seat == seat` -> `a.seat >= seat` (seed 3): White was offered Black's tired armies
    st = position({"e1": "K", "e8": "k", "d1": "Q", "d8": "q"})
    for square in ("d1", "d8"):
        a = at(st, square)
        give(a, "GG")
        a.skill = [0] * 5
    touch(st)
    st.apply(("pass",))
    rests = {a[1] for a in st.legal_actions() if a[0] == "rest"}
    assert rests == {at(st, "d1").id}
