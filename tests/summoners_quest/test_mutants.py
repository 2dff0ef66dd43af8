"""Tests that kill surviving mutants of the Summoner's Quest's rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import fresh, pair_onto_pitfall, put


def test_a_portal_effect_jumps_along_the_ring_and_does_nothing_in_the_centre():
    # kills effects.py:261 `if p < 32` -> `p <= 32` (a summoner on mana gate 1, space 32, jumped to the first portal)
    st = fresh()
    board = st.game.board
    assert board.portals == [4, 12, 20, 28] and board.chamber == 44
    for start, end in ((0, 4), (4, 12), (27, 28), (28, 4), (31, 4), (32, 32), (35, 35), (44, 44)):
        st.set_pos("P0", start)
        st._piece_effect(("portal",), "P0")
        assert st.pos_of("P0") == end, (start, st.pos_of("P0"))


def test_a_summon_silenced_by_the_silence_card_cannot_use_its_ability():
    # kills effects.py:357 `m.status == "silenced"` -> `m.status is "silenced"`: the status comes from the card
    # file, an equal string that is not the same object, so only comparing by value sees it
    st = fresh(3)
    st.mana[0] = 10
    giant = put(st, 0, "frost_giant", 9)
    u = int(giant[1:])
    st.pos[0] = 5
    st.pos[1], st.pos[2] = 9, 20
    st._legal = None
    assert ("ability", u, 9) in st.legal_actions()
    silence = st.game.cards["silence"].effects[0]
    assert silence[:2] == ("status", "silenced") or list(silence[:2]) == ["status", "silenced"]
    st._piece_effect(tuple(silence), giant, "silence")
    st._legal = None
    assert st.summons[u].status == "silenced"
    assert not [a for a in st.legal_actions() if a[0] == "ability" and a[1] == u]


def test_the_log_names_the_defeated_summoners_player_from_one():
    # kills effects.py:186 `Player {s + 1}` -> `Player {s * 1}`
    st = fresh(3)
    st.eliminate(1)
    assert not st.alive[1]
    texts = [e["text"] for e in st.events(None)]
    assert "Player 2's summoner is defeated." in texts, texts[-3:]


def _texts(st, since: int = 0) -> list[str]:
    return [e[3] for e in st._entries()[since:]]


def test_taking_off_an_item_logs_the_player_who_discards_it():
    # kills effects.py:401 `Player {seat + 1}` -> `Player {seat * 1}` (seed 2): "Player 0 discards Kanabo."
    from .helpers import give

    st = fresh()
    st.pos[0] = 5
    st.mana[0] = 20
    give(st, 0, "kanabo")
    st.apply(("equip", "kanabo", "P0"))
    before = len(st._entries())
    st.apply(("unequip", "kanabo"))
    name = st.game.cards["kanabo"].name
    assert f"Player 1 discards {name}." in _texts(st, before), _texts(st, before)


def test_the_turn_order_is_logged_with_each_players_own_number():
    # kills rules.py:92 `Player {s + 1}` -> `Player {s & 1}` (seed 2): the turn order line named seats 1 and 3
    # "Player 1" and seats 0 and 2 "Player 0"
    from boardlab.engine import make

    for players in (2, 3, 4):
        for seed in range(3):
            st = make("summoners-quest", players=players).new_state(seed)
            line = "Turn order: " + ", ".join(f"Player {s + 1}" for s in st.order)
            assert line in _texts(st), (players, seed, _texts(st)[:3])


def test_leaving_the_chamber_logs_whose_hold_is_broken():
    # kills effects.py:76 `Player {s + 1}'s hold` -> `Player {s - 1}'s hold` (seed 2): "Player -1's hold ..."
    st = fresh(3)
    board = st.game.board
    for s in range(3):
        st.pos[s], st.hold[s] = board.chamber, 1
        before = len(st._entries())
        st.set_pos(f"P{s}", 8 * s)
        assert f"Player {s + 1}'s hold on the chamber is broken." in _texts(st, before), _texts(st, before)
        assert st.hold[s] == 0


def test_a_spell_is_logged_as_cast_by_the_player_who_casts_it():
    # kills effects.py:441 `Player {seat + 1} casts` -> `Player {seat ^ 1} casts` (seed 2): seat 0 reads the
    # same either way (0 + 1 == 0 ^ 1), so the second player casts here ("Player 0 casts Healing Light.")
    from .helpers import give

    st = fresh()
    st.active = 1
    st.life[1] = 5
    give(st, 1, "healing_light")
    before = len(st._entries())
    st.apply(("cast", "healing_light", "P1"))
    name = st.game.cards["healing_light"].name
    assert f"Player 2 casts {name}." in _texts(st, before), _texts(st, before)


def test_crossing_ones_temple_is_logged_for_the_player_who_crossed():
    # kills rules.py:281 `Player {seat + 1} crosses` -> `Player {seat * 1} crosses` (seed 2)
    from .helpers import rolled

    st = fresh()
    st.pos[0] = 30
    rolled(st, 1, 2)
    before = len(st._entries())
    st.apply(("move", "P", 1, -1))
    assert st.mana[0] == 8
    assert "Player 1 crosses their temple: +2 maximum mana." in _texts(st, before), _texts(st, before)


def test_a_trap_negation_roll_with_a_bonus_logs_the_sum():
    # kills rules.py:418 `= {r + bonus}` -> `= {r >> bonus}` (seed 2): "3, +2 trap bonus = 0, needed 5"
    from .helpers import rolled, script

    st = fresh()
    s = put(st, 0, "caipora", 1)  # trapsense: +2 to negation rolls
    st.traps[3] = ["fire_glyph", 1]  # 5+
    rolled(st, 1, 1)
    script(st, 3)
    before = len(st._entries())
    st.apply(("move", s, 3, -1))
    assert 3 not in st.traps
    assert any(", +2 trap bonus = 5, needed 5: the trap is destroyed." in t for t in _texts(st, before)), \
        _texts(st, before)


def test_a_board_space_without_a_string_id_and_kind_is_refused_by_name():
    # kills board.py:60 `for i, sp in enumerate(ring + centre)` -> `for i, sp in []` (seed 2): a space that is not
    # an object, or has no string id or kind, passed the check and failed later with another error, or none
    import copy

    import pytest

    from boardlab.engine import ContentError
    from boardlab.games.summoners_quest.board import Board
    from boardlab.games.summoners_quest.board import default_board_path

    base = json.loads(default_board_path().read_text(encoding="utf-8"))
    for where, k, edit in (("ring", 2, lambda sp: sp.update(id=7)), ("ring", 0, lambda sp: sp.pop("kind")),
                           ("centre", 12, lambda sp: sp.update(kind=None)), ("centre", 3, lambda sp: sp.pop("id"))):
        doc = copy.deepcopy(base)
        edit(doc[where][k])
        n = k if where == "ring" else len(base["ring"]) + k
        with pytest.raises(ContentError, match=rf"space #{n} needs a string 'id' and 'kind'"):
            Board(doc, "edited.json")


def test_any_closed_gate_may_be_opened_at_will_while_a_later_one_is_open():
    # kills effects.py:364 `not self.gates >> k & 1` -> `not self.gates >> k // 1` (seed 2): that reads "no gate
    # from k on is open", so with gate 2 open gates 1 and 0 could not be opened; the tests opened gates in order
    for opened, closed in ((0b0010, {0, 2, 3}), (0b0100, {0, 1, 3}), (0b1000, {0, 1, 2}), (0b1010, {0, 2})):
        st = fresh(variant="gates-at-will")
        st.pos[0] = 20
        st.mana[0] = 10
        st.gates = opened
        st._legal = None
        assert {a[1] for a in st.legal_actions() if a[0] == "open"} == closed, (bin(opened), st.legal_actions())


def test_the_centre_spaces_are_coded_gate_then_its_two_halls():
    # kills board.py:39 `divmod(i - RING, 3)` -> `divmod(i - RING, 2)` (seed 3): the codes a board file
    # without its own codes gets, as docs/rules and "open gate 1" name them
    from boardlab.games.summoners_quest.board import RING, _code

    codes = [_code(i, "gate" if (i - RING) % 3 == 0 else "hall", {}) for i in range(RING, RING + 12)]
    assert codes == ["G1", "H1a", "H1b", "G2", "H2a", "H2b", "G3", "H3a", "H3b", "G4", "H4a", "H4b"]
    assert _code(RING + 12, "chamber", {}) == "CV"


def _equip_offers(st, seat, card):
    st.active = seat
    st._legal = None
    return [a for a in st.legal_actions() if a[0] == "equip" and a[1] == card]


def test_the_equipment_limit_counts_the_summoner_and_every_own_summon_together():
    # kills effects.py:322 `len(...) + sum(...)` -> `^` (seed 3): one item on the summoner and one on a
    # summon made 1 ^ 1 = 0 equipped, so a third item was offered past equip_max 2
    from .helpers import give

    st = fresh(equip_max=2)
    st.mana[0] = 20
    uid = int(put(st, 0, "fenrir", 1)[1:])
    st.equip[0].append("mjolnir")
    st.summons[uid].equip.append("gungnir")
    give(st, 0, "aegis")
    assert _equip_offers(st, 0, "aegis") == []
    st.summons[uid].equip.clear()
    assert ("equip", "aegis", "P0") in _equip_offers(st, 0, "aegis")


def test_another_players_equipped_summons_do_not_count_against_your_limit():
    # kills effects.py:322 `m.owner == seat` -> `m.owner <= seat` (seed 3): player 2's limit counted
    # player 1's summon's items
    from .helpers import give

    st = fresh(equip_max=2)
    st.mana[1] = 20
    uid = int(put(st, 0, "fenrir", 1)[1:])
    st.summons[uid].equip.extend(["mjolnir", "gungnir"])
    give(st, 1, "aegis")
    assert ("equip", "aegis", "P1") in _equip_offers(st, 1, "aegis")


def test_opening_a_gate_at_will_is_logged_for_the_player_from_one():
    # kills effects.py:385 `Player {seat + 1} opens` -> `Player {seat + 0}` (seed 3)
    st = fresh(variant="gates-at-will")
    st.pos[0] = 20
    st.mana[0] = 10
    st._legal = None
    before = len(st._entries())
    st.apply(("open", 2))
    assert "Player 1 opens gate 3." in _texts(st, before), _texts(st, before)


def test_equipping_is_logged_for_the_player_who_equips():
    # kills effects.py:438 `Player {seat + 1} equips` -> `Player {seat ^ 1}` (seed 3): seat 0 reads the same
    # either way, so the second player equips here
    from .helpers import give

    st = fresh()
    st.active = 1
    st.mana[1] = 20
    give(st, 1, "aegis")
    before = len(st._entries())
    st.apply(("equip", "aegis", "P1"))
    name = st.game.cards["aegis"].name
    assert any(t.startswith(f"Player 2 equips {name} on ") for t in _texts(st, before)), _texts(st, before)


def test_the_discard_to_draw_event_names_the_card_discarded():
    # kills rules.py:347 `"discard": action[1]` -> `action[0]` (seed 3): the event's data said "discard_draw"
    from .helpers import give, rolled

    st = fresh()
    give(st, 0, "fireball", "gust", "haste", "slow", "insight")
    rolled(st, 1, 1)
    st.apply(("move", "P", 2, -1))
    st.apply(("discard_draw", "gust"))
    line = [e for e in st.events(1) if e["text"] == "Player 1 discards Gust of Wind to draw."]
    assert [e["data"] for e in line] == [{"seat": 0, "discard": "gust"}]


def test_a_board_file_needs_exactly_32_ring_spaces():
    # kills board.py:56 `len(ring) != RING` -> `len(ring) > RING` (seed 5): a ring of 31 spaces was accepted
    import copy

    import pytest

    from boardlab.engine import ContentError
    from boardlab.games.summoners_quest.board import Board

    doc = json.loads((Path(__file__).resolve().parents[2] / "boardlab/games/summoners_quest/data/board.json")
                     .read_text(encoding="utf-8"))
    short = copy.deepcopy(doc)
    short["ring"] = short["ring"][:-1]
    with pytest.raises(ContentError, match="exactly 32 spaces"):
        Board(short, "short.json")


def test_a_summons_label_names_its_owner_from_one():
    # kills effects.py:448 `(P{m.owner + 1})` -> `(P{m.owner | 1})` (seed 5): player 2's summons read "(P1)"
    st = fresh(3)
    names = {seat: st.label(put(st, seat, card, 8 * seat + 1)) for seat, card in ((0, "fenrir"), (1, "sleipnir"), (2, "draugr"))}
    assert [names[s].rsplit(" ", 1)[1] for s in range(3)] == ["(P1)", "(P2)", "(P3)"], names


def test_the_opening_roll_line_names_each_player_from_one():
    # kills rules.py:100 `Player {s + 1} {r}` -> `Player {s << 1} {r}` (seed 5)
    from boardlab.engine import make

    st = make("summoners-quest", players=3).new_state(0)
    line = next(t for t in _texts(st) if t.startswith("Turn order: each rolls"))
    assert [part.rsplit(" ", 2)[-2] for part in line.split("first: ", 1)[1].split(", ")] == ["1", "2", "3"], line


def test_the_win_line_names_the_winner_from_one():
    # kills rules.py:172 `Player {seat + 1} wins` -> `Player {seat / 1} wins` (seed 5): "Player 1.0 wins"
    st = fresh(3)
    st.eliminate(0)
    st.eliminate(2)
    assert st.is_over()
    assert any(t.startswith("Player 2 wins: ") for t in _texts(st)), _texts(st)[-3:]


def test_a_trap_victim_choice_read_back_from_a_state_document_offers_the_same_choice():
    # kills rules.py:196 `kind == "trap_victim"` -> `kind is "trap_victim"` (seed 5): a prompt read back from a
    # document holds an equal but distinct string, and the choice vanished (as Armies' rules.py:371 did)
    from boardlab.engine.state import State

    st = fresh()
    s = pair_onto_pitfall(st)
    assert st.stack[-1].kind == "trap_victim"
    st.forget_history()  # a position built by hand is saved without its history
    doc = json.loads(json.dumps(st.to_json()))
    back = State.from_json(doc, st.game)
    assert back.stack[-1].kind == "trap_victim"
    assert set(back.legal_actions()) == set(st.legal_actions()) == {("victim", "P0"), ("victim", s)}


def test_a_summon_on_a_gate_space_may_not_move_backwards():
    # kills rules.py:242 `p < 32` -> `p < 33` (seed 5): a summon on the first gate (space 32) was offered a
    # backward move out of the centre
    from .helpers import rolled

    st = fresh()
    st.gates = 0b1111
    s = put(st, 0, "fenrir", 32)
    rolled(st, 1, 2)
    moves = [a for a in st.legal_actions() if a[0] == "move" and a[1] == s]
    assert moves and not any(a[3] == -2 for a in moves), moves


def test_a_summoner_moving_with_its_summon_onto_its_own_temple_gains_its_mana():
    # kills rules.py:276 `max(1, roll // 2)` -> `max(2, roll // 2)` (seed 5): the temple check walked two steps
    # for a one-step move together, so stepping onto one's own temple gave nothing
    from .helpers import rolled

    st = fresh()
    s = put(st, 0, "einherjar", 31)
    st.pos[0] = 31
    rolled(st, 1, 1)
    st.apply(("move", "B" + s[1:], 0, -1))
    assert st.pos[0] == 0 and st.mana[0] == 8
