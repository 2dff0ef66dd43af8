"""Scenario tests for Blackfire's rules, built from explicit positions.

Most scenarios use the small open test map ``field.txt``: green start (5, 4),
a wall between (1, 4) and (2, 4), inaccessible squares (8, 7) and (9, 7),
exits #1-#4 at the corners (0, 0), (10, 0), (0, 8), (10, 8), red starts #1-#4
at (3, 2), (7, 2), (3, 6), (7, 6).  Green is seat 0 and moves first; exit #4
(10, 8) is open.
"""

from __future__ import annotations

import pytest

from boardlab.engine import IllegalActionError, make

from .helpers import UNITS, cell_of, field_state, move, moves, place, rig, sq, token

FAR_RED = dict(RS=(10, 1), RA=(10, 2), RW=(10, 3))


def fresh(**units):
    st = field_state()
    place(st, **{**FAR_RED, **units})
    return st


# -- Turn mechanics ------------------------------------------------------------
@pytest.mark.seed("blackfire:22.1", "blackfire:33.1", "blackfire:39.1", "blackfire:51.1")
def test_natural_movement_allowances():
    """"Sorcerer ... Moves 2 spaces naturally", "Archer: Moves 2 spaces", "Offensive: Moves 3 spaces"."""
    st = fresh(GS=(5, 4), GA=(0, 8), GW=(0, 0))
    assert max(abs(x - 5) + abs(y - 4) for x, y in moves(st, "GS")) == 2
    assert len(moves(st, "GS")) == 12
    st = fresh(GA=(5, 4), GS=(0, 8), GW=(0, 0))
    assert len(moves(st, "GA")) == 12
    st = fresh(GW=(5, 4), GS=(0, 8), GA=(0, 0))
    assert len(moves(st, "GW")) == 24  # 4 + 8 + 12 squares within 3


@pytest.mark.seed("blackfire:22.1")
def test_walls_and_inaccessible_squares_block_movement():
    st = fresh(GS=(1, 4), GA=(0, 0), GW=(0, 8))
    assert (2, 4) not in moves(st, "GS")  # the wall: three steps around
    assert (1, 2) in moves(st, "GS")
    st = fresh(GW=(8, 6), GS=(0, 0), GA=(0, 8))
    assert (8, 7) not in moves(st, "GW") and (9, 7) not in moves(st, "GW")
    assert (7, 8) in moves(st, "GW") and (8, 8) not in moves(st, "GW")  # around the block: 3 and 4 steps


@pytest.mark.seed("blackfire:24.1")
def test_pieces_and_tokens_may_be_passed_over_but_not_stopped_on_by_friends():
    """"A token may be passed over"; a unit cannot end on a friendly unit."""
    st = fresh(GW=(5, 4), GA=(5, 3), GS=(0, 0))
    token(st, 5, 2, "death")
    assert (5, 1) in moves(st, "GW")
    assert (5, 3) not in moves(st, "GW")
    move(st, "GW", 5, 1)
    assert sq(st, 5, 2) in st.tokens and cell_of(st, "GW") == (5, 1)


@pytest.mark.seed("blackfire:22.1")
def test_each_piece_moves_at_most_once_and_may_stay():
    """"All pieces may be moved once per turn ... or you may choose not to move some or all of them.\""""
    st = fresh(GS=(5, 4), GA=(3, 4), GW=(7, 4))
    assert ("end",) in st.legal_actions()
    move(st, "GA", 3, 3)
    assert not moves(st, "GA")
    assert moves(st, "GS") and moves(st, "GW")
    st.apply(("end",))
    assert st.side == 1


@pytest.mark.seed("blackfire:22.1")
def test_turn_ends_by_itself_when_every_piece_has_moved():
    st = fresh(GS=(5, 4), GA=(3, 4), GW=(7, 4))
    move(st, "GA", 3, 3)
    move(st, "GS", 5, 3)
    assert st.side == 0
    move(st, "GW", 7, 3)
    assert st.side == 1 and st.turn == 2


@pytest.mark.seed("blackfire:24.1", "blackfire:27.1")
def test_picking_up_a_token_ends_the_units_movement():
    """"if it is picked up, then all further movement points for that turn are lost for the receiving unit.\""""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8))
    token(st, 5, 3, "slow")
    move(st, "GW", 5, 3)
    assert sq(st, 5, 3) not in st.tokens
    assert st.revealed == {"slow": 1}
    assert not moves(st, "GW")


# -- Warrior ---------------------------------------------------------------------
@pytest.mark.seed("blackfire:48.1", "blackfire:49.1", "blackfire:54.1")
def test_stance_changes_only_at_the_start_of_the_turn():
    """"Stances may be changed only at the beginning of a turn, and only before movement has been made.\""""
    st = fresh(GS=(5, 4), GA=(3, 4), GW=(7, 4))
    assert ("stance", UNITS["GW"]) in st.legal_actions()
    move(st, "GA", 3, 3)
    assert ("stance", UNITS["GW"]) not in st.legal_actions()
    st = fresh(GS=(5, 4), GA=(3, 4), GW=(7, 4))
    st.apply(("stance", UNITS["GW"]))
    assert st.units[UNITS["GW"]].stance == "defensive"
    assert ("stance", UNITS["GW"]) not in st.legal_actions()  # once per turn
    assert not moves(st, "GW")  # "Defensive: Cannot move."


@pytest.mark.seed("blackfire:55.1", "blackfire:56.1")
def test_defensive_warrior_cannot_be_passed_and_blocks_all_but_the_orb():
    """"No opposing piece may pass over it"; "Blocks all attacks, except from the Orb.\""""
    st = fresh(GA=(5, 4), GS=(0, 0), GW=(0, 8), RW=(5, 3))
    st.units[UNITS["RW"]].stance = "defensive"
    st._legal = None
    assert (5, 3) not in moves(st, "GA") and (5, 2) not in moves(st, "GA")
    # the Orb carrier may land on it ("attacks from the Orb") but still not pass it
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(0, 8), RW=(5, 3))
    st.units[UNITS["RW"]].stance = "defensive"
    st._legal = None
    assert st.orb_holder == UNITS["GS"]
    assert (5, 3) in moves(st, "GS") and (5, 2) not in moves(st, "GS")
    move(st, "GS", 5, 3)
    assert cell_of(st, "RW") is None


@pytest.mark.seed("blackfire:45.1", "blackfire:55.1")
def test_defensive_warrior_is_not_shot_by_an_archer():
    st = fresh(GA=(5, 5), GS=(0, 0), GW=(0, 8), RW=(5, 2), RS=(10, 8))
    st.units[UNITS["RW"]].stance = "defensive"
    st._legal = None
    move(st, "GA", 5, 4)  # within 2 of the defensive warrior only
    assert cell_of(st, "RW") == (5, 2) and not st.stack


# -- Archer ------------------------------------------------------------------------
@pytest.mark.seed("blackfire:41.1")
def test_stopping_within_two_of_an_enemy_archer_kills_but_passing_does_not():
    """"Opposing pieces cannot stop within two spaces without being killed.\""""
    st = fresh(GW=(5, 7), GS=(0, 0), GA=(0, 8), RA=(5, 3))
    move(st, "GW", 5, 4)  # passes nothing; stops 1 away
    assert cell_of(st, "GW") is None and cell_of(st, "RA") == (5, 3)
    st = fresh(GW=(6, 6), GS=(0, 0), GA=(0, 8), RA=(5, 4))
    move(st, "GW", 3, 6)  # walks (6,6)->(5,6)->(4,6)->(3,6)? (5,6) is 2 from the archer, (3,6) is 4
    assert cell_of(st, "GW") == (3, 6)


@pytest.mark.seed("blackfire:44.1")
def test_archer_is_defeated_by_landing_on_it():
    """"May only be defeated by landing directly on top of it, or through an archer contest.\""""
    st = fresh(GW=(5, 6), GS=(0, 0), GA=(0, 8), RA=(5, 4))
    move(st, "GW", 5, 4)
    assert cell_of(st, "RA") is None and cell_of(st, "GW") == (5, 4)


@pytest.mark.seed("blackfire:45.1", "blackfire:46.1", "blackfire:52.1")
def test_moving_archer_kills_and_the_attacker_chooses_among_several():
    """"If it is moved within the two space limit of an opposing piece, the opposing piece will be killed.
    If more than one unit is available to kill, the attacking player may choose who to attack.\""""
    st = fresh(GA=(5, 8), GS=(0, 0), GW=(0, 8), RS=(4, 5), RW=(6, 5))
    move(st, "GA", 5, 6)
    assert st.stack and st.stack[-1].kind == "shoot"
    assert set(st.legal_actions()) == {("shoot", UNITS["RS"]), ("shoot", UNITS["RW"])}
    st.apply(("shoot", UNITS["RW"]))
    assert cell_of(st, "RW") is None and cell_of(st, "RS") == (4, 5)
    st = fresh(GA=(5, 8), GS=(0, 0), GW=(0, 8), RW=(6, 5))
    move(st, "GA", 5, 6)
    assert cell_of(st, "RW") is None and not st.stack  # a single target is shot at once


@pytest.mark.seed("blackfire:42.1", "blackfire:43.1", "blackfire:43.2", "blackfire:90.5")
@pytest.mark.parametrize("roll,attacker_wins", [(5, True), (6, True), (4, False), (1, False)])
def test_archer_contest(roll, attacker_wins):
    """"If two archers meet ... Attacker rolls a die. They must roll a 5 or 6 to kill the defender.\""""
    st = fresh(GA=(5, 8), GS=(0, 0), GW=(0, 8), RA=(5, 4))
    rig(st, (6, roll))
    move(st, "GA", 5, 6)
    assert (cell_of(st, "RA") is None) is attacker_wins
    assert (cell_of(st, "GA") is None) is not attacker_wins


@pytest.mark.seed("blackfire:73.1")
def test_displaced_archer_does_not_attack():
    """"If an archer is displaced, it cannot immediately attack if an enemy is in range after being moved.\""""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8), RA=(8, 4), RS=(5, 1))
    token(st, 5, 5, "displace")
    move(st, "GW", 5, 5)
    assert st.stack[-1].kind == "displace"
    st.apply(("displace", UNITS["RA"], sq(st, 6, 4)))  # next to the green warrior
    assert cell_of(st, "RA") == (6, 4) and cell_of(st, "GW") == (5, 5)


@pytest.mark.seed("blackfire:73.1", "blackfire:90.4")
@pytest.mark.parametrize("roll,displaced_wins", [(5, True), (6, True), (4, False), (1, False)])
def test_archer_displaced_into_range_of_the_enemy_archer_holds_a_contest(roll, displaced_wins):
    """Playtest notes: the contest answers "when another archer was placed within range of him via magic
    or movement" (ledger 14). The displaced archer arrived, so it is the attacker and needs 5 or 6; it
    still shoots no one else ("it cannot immediately attack")."""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(6, 2), RA=(8, 4), RS=(5, 1))
    token(st, 5, 5, "displace")
    move(st, "GW", 5, 5)
    rig(st, (6, roll))
    st.apply(("displace", UNITS["RA"], sq(st, 6, 4)))  # 2 from the green archer and 2 from the green warrior
    assert (cell_of(st, "GA") is None) is displaced_wins
    assert (cell_of(st, "RA") is None) is not displaced_wins
    assert cell_of(st, "GW") == (5, 5)


# -- Tokens ---------------------------------------------------------------------------
@pytest.mark.seed("blackfire:25.1", "blackfire:79.1")
def test_speed_gives_three_more_spaces_at_once():
    """"The exception is with a speed token, then an additional 3 spaces may be moved.\""""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8))
    token(st, 5, 5, "speed")
    move(st, "GW", 5, 5)
    assert st.stack[-1].kind == "speed"
    assert max(abs(x - 5) + abs(y - 5) for x, y in moves(st, "GW")) == 3
    assert ("stop",) in st.legal_actions()
    move(st, "GW", 2, 5)
    assert cell_of(st, "GW") == (2, 5) and not st.stack and not moves(st, "GW")


@pytest.mark.seed("blackfire:26.1", "blackfire:27.1", "blackfire:77.1")
def test_slow_applies_to_the_following_turn_only():
    """"If a slow token is picked up, the loss is transferred to the following round.\""""
    st = fresh(GA=(5, 4), GS=(0, 0), GW=(0, 8))
    token(st, 5, 3, "slow")
    move(st, "GA", 5, 3)
    st.apply(("end",))
    st.apply(("end",))  # red
    assert st.allowance(UNITS["GA"]) == 1
    assert max(abs(x - 5) + abs(y - 3) for x, y in moves(st, "GA")) == 1
    st.apply(("end",))
    st.apply(("end",))
    assert st.allowance(UNITS["GA"]) == 2


@pytest.mark.seed("blackfire:27.1", "blackfire:69.1", "blackfire:69.2")
def test_invulnerable_absorbs_one_attack_and_lasts_two_turns():
    """"Invulnerable: Unit is immune to 1 attack. Lasts only for 2 turns.\""""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8), RW=(5, 7), RS=(10, 8))
    token(st, 5, 5, "invulnerable")
    move(st, "GW", 5, 5)
    st.apply(("end",))
    move(st, "RW", 5, 5)  # red attacks: absorbed, the attacker stays put
    assert cell_of(st, "GW") == (5, 5) and cell_of(st, "RW") == (5, 7)
    assert st.units[UNITS["GW"]].inv_until is None
    # lasting: a fresh shield still holds on red's second turn, and is gone by the third
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8), RW=(10, 7), RS=(10, 8))
    token(st, 5, 5, "invulnerable")
    move(st, "GW", 5, 5)
    for _ in range(3):
        st.apply(("end",))
    assert st.units[UNITS["GW"]].inv_until is not None  # red's second turn
    st.apply(("end",))
    st.apply(("end",))
    assert st.units[UNITS["GW"]].inv_until is None


@pytest.mark.seed("blackfire:75.1")
def test_death_kills_the_collector_and_a_carrier_drops_the_orb():
    """"Death: Unit that collects the token is killed.\""""
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(0, 8))
    token(st, 5, 3, "death")
    move(st, "GS", 5, 3)
    assert cell_of(st, "GS") is None
    assert st.orb_holder is None and st.orb_cell == sq(st, 5, 3)
    assert st.units[UNITS["GS"]].respawn == 3


@pytest.mark.seed("blackfire:69.1", "blackfire:75.1")
def test_invulnerability_does_not_stop_the_death_token():
    """Ledger: Death is not an attack, so Invulnerable does not absorb it."""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8))
    st.units[UNITS["GW"]].inv_until = st.turn + 4
    token(st, 5, 3, "death")
    move(st, "GW", 5, 3)
    assert cell_of(st, "GW") is None


@pytest.mark.seed("blackfire:15.1", "blackfire:52.1")
def test_landing_on_a_start_square_kills_every_unit_there():
    """Ledger: "All units begin in the starting square"; landing on that square attacks each of them."""
    st = fresh(GS=(0, 0), GA=(0, 8), GW=(7, 5), RS=(7, 2), RA=(7, 2), RW=(7, 2))
    move(st, "GW", 7, 2)
    assert [cell_of(st, n) for n in ("RS", "RA", "RW")] == [None, None, None]
    assert st.is_over() and st.results().winners == (0,)


@pytest.mark.seed("blackfire:29.1", "blackfire:65.1")
def test_revive_token_revives_anywhere_and_kills_an_enemy_there():
    """"Revive any dead unit, anywhere on the board"; "If a unit is revived and that space is being
    occupied by an enemy unit, that unit is automatically killed.\""""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=None, RS=(9, 8))
    token(st, 5, 5, "revive")
    move(st, "GW", 5, 5)
    legal = st.legal_actions()
    assert ("revive", UNITS["GA"], sq(st, 9, 8)) in legal and ("revive", UNITS["GA"], sq(st, 0, 4)) in legal
    st.apply(("revive", UNITS["GA"], sq(st, 9, 8)))
    assert cell_of(st, "GA") == (9, 8) and cell_of(st, "RS") is None


@pytest.mark.seed("blackfire:65.1")
def test_revive_token_with_nobody_dead_does_nothing():
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8))
    token(st, 5, 5, "revive")
    move(st, "GW", 5, 5)
    assert st.legal_actions() == (("pass",),)


@pytest.mark.seed("blackfire:67.1")
def test_recall_moves_archer_and_warrior_to_the_sorcerer():
    """"Recall: Move archer and warrior to the Sorcerer.\""""
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(9, 4))
    token(st, 9, 5, "recall")
    move(st, "GW", 9, 5)
    for name in ("GA", "GW"):
        x, y = cell_of(st, name)
        assert abs(x - 5) + abs(y - 4) == 1


@pytest.mark.seed("blackfire:71.1", "blackfire:72.1")
def test_displace_moves_an_enemy_through_walls_not_into_inaccessible_areas():
    """"Move a single enemy unit up to 2 spaces. Can be moved through walls, but not into inaccessible areas.\""""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8), RS=(1, 4), RW=(8, 6), RA=(10, 2))
    token(st, 5, 5, "displace")
    move(st, "GW", 5, 5)
    legal = st.legal_actions()
    assert ("displace", UNITS["RS"], sq(st, 3, 4)) in legal  # through the wall
    assert ("displace", UNITS["RW"], sq(st, 8, 7)) not in legal  # inaccessible
    assert ("displace", UNITS["RW"], sq(st, 8, 8)) in legal  # over the block
    st.apply(("displace", UNITS["RS"], sq(st, 3, 4)))
    assert cell_of(st, "RS") == (3, 4)
    # a defensive warrior is not attacked by Displace, so it can be displaced
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8), RW=(8, 6))
    st.units[UNITS["RW"]].stance = "defensive"
    token(st, 5, 5, "displace")
    move(st, "GW", 5, 5)
    assert ("displace", UNITS["RW"], sq(st, 8, 8)) in st.legal_actions()


@pytest.mark.seed("blackfire:73.1")
def test_displacing_an_enemy_into_my_archers_range_kills_it():
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(2, 2), RS=(5, 1), RW=(10, 8))
    token(st, 5, 5, "displace")
    move(st, "GW", 5, 5)
    st.apply(("displace", UNITS["RS"], sq(st, 3, 1)))
    assert cell_of(st, "RS") is None


@pytest.mark.seed("blackfire:81.1", "blackfire:82.1")
@pytest.mark.parametrize("roll", [1, 2, 3, 4])
def test_teleport_moves_the_orb_to_a_red_start(roll):
    """"Roll d6 ... 1. Move orb to Red start #1 ... 4. Move orb to Red start #4.\""""
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(0, 8))
    token(st, 5, 3, "teleport")
    rig(st, (6, roll))
    move(st, "GS", 5, 3)
    assert st.orb_holder is None and st.orb_cell == st.game.castle.red_starts[roll - 1]


@pytest.mark.seed("blackfire:86.1", "blackfire:86.2")
def test_teleport_five_is_a_mass_recall():
    """"5. Mass Recall. All units are returned to their respective Sorcerer.\""""
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(4, 7), RS=(9, 1), RA=(0, 8), RW=(10, 8))
    token(st, 4, 6, "teleport")
    rig(st, (6, 5))
    move(st, "GW", 4, 6)
    for name, (sx, sy) in (("GA", (5, 4)), ("GW", (5, 4)), ("RA", (9, 1)), ("RW", (9, 1))):
        x, y = cell_of(st, name)
        assert abs(x - sx) + abs(y - sy) == 1, name


@pytest.mark.seed("blackfire:87.1", "blackfire:87.2")
def test_teleport_six_jumps_up_to_three_regardless_of_walls():
    """"6. Unit may teleport up to 3 spaces, regardless of walls. Cannot teleport into normally inaccessible spaces.\""""
    st = fresh(GW=(7, 4), GS=(0, 0), GA=(0, 8))
    token(st, 7, 5, "teleport")
    rig(st, (6, 6))
    move(st, "GW", 7, 5)
    legal = st.legal_actions()
    assert ("stay",) in legal
    assert ("jump", sq(st, 7, 8)) in legal and ("jump", sq(st, 8, 7)) not in legal
    assert all(st.game.castle.manhattan(sq(st, 7, 5), a[1]) <= 3 for a in legal if a[0] == "jump")
    st.apply(("jump", sq(st, 9, 6)))
    assert cell_of(st, "GW") == (9, 6)


# -- Sorcerer and the Orb -----------------------------------------------------------------
@pytest.mark.seed("blackfire:23.1", "blackfire:59.1", "blackfire:60.1")
def test_picking_up_the_orb_ends_the_sorcerers_move():
    """"If the Orb is picked up, then all movement points for the Sorcerer are lost for that turn.\""""
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(0, 8))
    st.orb_holder, st.orb_cell = None, sq(st, 5, 3)
    st._legal = None
    move(st, "GS", 5, 3)
    assert st.orb_holder == UNITS["GS"] and not moves(st, "GS")


@pytest.mark.seed("blackfire:23.1", "blackfire:59.1")
def test_a_sorcerer_standing_on_the_orb_takes_it_with_its_move():
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(0, 8))
    st.orb_holder, st.orb_cell = None, sq(st, 5, 4)
    st._legal = None
    st.apply(("take", UNITS["GS"]))
    assert st.orb_holder == UNITS["GS"] and not moves(st, "GS")


@pytest.mark.seed("blackfire:35.1", "blackfire:58.1")
def test_only_a_sorcerer_holds_the_orb():
    st = fresh(GS=(0, 0), GA=(5, 4), GW=(0, 8))
    st.orb_holder, st.orb_cell = None, sq(st, 5, 3)
    st._legal = None
    move(st, "GA", 5, 3)
    assert st.orb_holder is None and st.orb_cell == sq(st, 5, 3)


@pytest.mark.seed("blackfire:34.1")
def test_killing_the_carrier_drops_the_orb_and_the_enemy_sorcerer_takes_it():
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(0, 8), RS=(5, 6))
    st.apply(("end",))
    move(st, "RS", 5, 4)
    assert cell_of(st, "GS") is None and st.orb_holder == UNITS["RS"]


@pytest.mark.seed("blackfire:28.1", "blackfire:36.1")
def test_sorcerer_revives_an_adjacent_ally_after_moving():
    """"If not holding the orb, it can revive a friendly unit if 1 space away";
    "Reviving an ally consumes any leftover movement points for that turn.\""""
    st = fresh(GS=(5, 4), GA=None, GW=(0, 8))
    st.orb_holder, st.orb_cell = None, sq(st, 0, 4)
    st._legal = None
    move(st, "GS", 5, 3)
    revives = [a for a in st.legal_actions() if a[0] == "revive"]
    assert {st.game.castle.xy(a[2]) for a in revives} == {(5, 2), (4, 3), (6, 3), (5, 4)}
    st.apply(("revive", UNITS["GA"], sq(st, 5, 2)))
    assert cell_of(st, "GA") == (5, 2)
    assert not any(a[0] == "revive" for a in st.legal_actions()) and not moves(st, "GS")


@pytest.mark.seed("blackfire:36.1")
def test_a_carrier_cannot_revive():
    st = fresh(GS=(5, 4), GA=None, GW=(0, 8))
    assert not any(a[0] == "revive" for a in st.legal_actions())


@pytest.mark.seed("blackfire:29.1")
def test_a_revived_unit_kills_the_enemy_on_its_square():
    st = fresh(GS=(5, 4), GA=None, GW=(0, 8), RW=(5, 5))
    st.orb_holder, st.orb_cell = None, sq(st, 0, 4)
    st._legal = None
    st.apply(("revive", UNITS["GA"], sq(st, 5, 5)))
    assert cell_of(st, "RW") is None and cell_of(st, "GA") == (5, 5)


@pytest.mark.seed("blackfire:37.1", "blackfire:37.2", "blackfire:91.3")
def test_sorcerer_respawns_after_three_turns_and_pushes_enemies_back():
    """"If killed, respawns after 3 turns as long as friendly piece is still alive. Any opposing units
    within three spaces, are moved until they are four spaces from the Sorcerer.\""""
    st = fresh(GS=(0, 4), GA=(0, 0), GW=(0, 8), RW=(5, 5), RA=(5, 2), RS=(10, 8))
    st._kill(UNITS["GS"])
    st.orb_holder, st.orb_cell = None, sq(st, 10, 4)
    countdown = []
    for _ in range(6):
        st.apply(("end",))
        countdown.append(st.units[UNITS["GS"]].respawn)
    assert cell_of(st, "GS") == (5, 4) and st.side == 0 and st.turn == 7
    assert countdown == [3, 2, 2, 1, 1, None]  # counted at the start of each of green's turns
    d = st.game.castle.dist[sq(st, 5, 4)]
    assert d[st.units[UNITS["RW"]].cell] == 4 and d[st.units[UNITS["RA"]].cell] == 4
    assert cell_of(st, "RS") == (10, 8)


@pytest.mark.seed("blackfire:37.1")
def test_no_unit_left_loses():
    """Ledger: a side with every unit dead (so no sorcerer can respawn) loses."""
    st = fresh(GS=None, GA=None, GW=(5, 4), RW=(5, 6))
    st.units[UNITS["GS"]].respawn = 2
    st.orb_holder, st.orb_cell = None, sq(st, 0, 4)
    st.apply(("end",))
    move(st, "RW", 5, 4)
    assert st.is_over() and st.results().winners == (1,)


# -- Victory ----------------------------------------------------------------------------------
@pytest.mark.seed("blackfire:9.1")
def test_carrying_the_orb_to_the_open_exit_wins():
    """"Goal: Take the Blackfire Orb to the exit.\""""
    st = fresh(GS=(9, 8), GA=(0, 0), GW=(0, 4))
    move(st, "GS", 10, 8)
    assert st.is_over() and st.results().winners == (0,)


@pytest.mark.seed("blackfire:11.1")
def test_a_closed_exit_does_not_win_and_red_needs_the_same_open_exit():
    st = fresh(GS=(1, 8), GA=(0, 0), GW=(0, 4))
    move(st, "GS", 0, 8)  # exit #3 is closed
    assert not st.is_over()
    st = fresh(GS=(0, 2), GA=(0, 0), GW=(0, 4), RS=(9, 8))
    st.orb_holder = UNITS["RS"]
    st.apply(("end",))
    move(st, "RS", 10, 8)
    assert st.is_over() and st.results().winners == (1,)


@pytest.mark.seed("blackfire:41.1")
def test_an_archer_guarding_the_exit_shoots_the_carrier_first():
    st = fresh(GS=(9, 8), GA=(0, 0), GW=(0, 4), RA=(10, 6))
    move(st, "GS", 10, 8)
    assert not st.is_over() and cell_of(st, "GS") is None and st.orb_cell == sq(st, 10, 8)


# -- Variant: prototype --------------------------------------------------------------------------
@pytest.mark.seed("blackfire:89.2", "blackfire:90.1", "blackfire:91.3b")
def test_prototype_rules():
    """Playtest notes: four token kinds, sorcerers moved one square, killing the sorcerer won, no respawn."""
    st = field_state("prototype")
    place(st, GS=(5, 4), GA=(0, 0), GW=(5, 7), RS=(5, 8), RA=(10, 2), RW=(10, 3))
    assert set(st.game.token_counts) == {"teleport", "speed", "slow", "death"}
    assert sum(st.game.token_counts.values()) == 15
    assert max(abs(x - 5) + abs(y - 4) for x, y in moves(st, "GS")) == 1
    move(st, "GW", 5, 8)
    assert st.is_over() and st.results().winners == (0,)
    assert "sorcerer" in st.results().reason


@pytest.mark.seed("blackfire:87.1", "blackfire:89.3")
def test_prototype_teleport_only_teleports():
    st = field_state("prototype")
    place(st, GS=(0, 0), GA=(0, 8), GW=(7, 4), **FAR_RED)
    token(st, 7, 5, "teleport")
    move(st, "GW", 7, 5)
    assert st.stack[-1].kind == "teleport" and st.orb_holder == UNITS["GS"]


class _NoDice:
    def roll(self, sides):
        raise AssertionError("no die should be rolled")


@pytest.mark.seed("blackfire:41.1", "blackfire:90.4b")
def test_prototype_archers_are_solely_defensive():
    """Playtest notes: the archer was "initially designed to be solely defensive"; the offensive ability
    came later (ledger 34). A prototype archer that stops next to enemies shoots no one, but an enemy that
    stops within 2 of it is still killed."""
    st = field_state("prototype")
    place(st, GA=(5, 8), GS=(0, 0), GW=(0, 8), RS=(4, 5), RW=(6, 5), RA=(10, 2))
    move(st, "GA", 5, 6)
    assert not st.stack and cell_of(st, "RW") == (6, 5) and cell_of(st, "RS") == (4, 5)
    st = field_state("prototype")
    place(st, GW=(5, 7), GS=(0, 0), GA=(0, 8), RA=(5, 3), RS=(10, 1), RW=(10, 3))
    move(st, "GW", 5, 4)
    assert cell_of(st, "GW") is None  # the defensive zone still kills


@pytest.mark.seed("blackfire:42.1", "blackfire:90.5")
def test_prototype_archers_hold_no_contest():
    """Playtest notes: the "dice roll when two archers meet" came later (ledger 34). In the prototype an
    archer that stops within 2 of the enemy archer is shot like any other piece, with no die."""
    st = field_state("prototype")
    place(st, GA=(5, 8), GS=(0, 0), GW=(0, 8), RA=(5, 4), RS=(10, 1), RW=(10, 3))
    st.rng = _NoDice()
    move(st, "GA", 5, 6)
    assert cell_of(st, "GA") is None and cell_of(st, "RA") == (5, 4)


@pytest.mark.seed("blackfire:45.1", "blackfire:90.4b")
@pytest.mark.parametrize("roll,attacker_wins", [(5, True), (4, False)])
def test_archer_options_flip_one_rule_each(roll, attacker_wins):
    """``archer_offense`` and ``archer_contest`` switch the two later additions separately (ledger 34)."""
    # the contest without the offensive shot
    st = field_state(archer_offense=False)
    place(st, GA=(5, 8), GS=(0, 0), GW=(0, 8), RA=(5, 4), **{k: v for k, v in FAR_RED.items() if k != "RA"})
    rig(st, (6, roll))
    move(st, "GA", 5, 6)
    assert (cell_of(st, "RA") is None) is attacker_wins and (cell_of(st, "GA") is None) is not attacker_wins
    st = field_state(archer_offense=False)
    place(st, GA=(5, 8), GS=(0, 0), GW=(0, 8), RS=(4, 5), RW=(6, 5), RA=(10, 2))
    move(st, "GA", 5, 6)
    assert not st.stack and cell_of(st, "RW") == (6, 5)
    # the offensive shot without the contest
    st = field_state(archer_contest=False)
    place(st, GA=(5, 8), GS=(0, 0), GW=(0, 8), RS=(4, 5), RW=(6, 5), RA=(10, 2))
    move(st, "GA", 5, 6)
    assert st.stack and st.stack[-1].kind == "shoot"
    st = field_state(archer_contest=False)
    place(st, GA=(5, 8), GS=(0, 0), GW=(0, 8), RA=(5, 4), RS=(10, 1), RW=(10, 3))
    st.rng = _NoDice()
    move(st, "GA", 5, 6)
    assert cell_of(st, "GA") is None and cell_of(st, "RA") == (5, 4)


# -- Set-up -------------------------------------------------------------------------------------
@pytest.mark.seed("blackfire:13.1", "blackfire:13.2", "blackfire:13.2b", "blackfire:63.1")
def test_setup_tokens_rooms_and_placements():
    """"Turn tokens upside down and shuffle. Place one in each of the seven treasure rooms, and each
    player may place four tokens anywhere on the board.\""""
    game = make("blackfire")
    st = game.new_state(3)
    assert set(st.tokens) == set(game.castle.treasure) and len(st.bag) == 8
    assert st.current_seat() == 0
    for i in range(4):
        st.apply(st.legal_actions()[i * 7])
    assert st.current_seat() == 1
    for i in range(4):
        st.apply(st.legal_actions()[-1 - i * 5])
    assert st.phase == "play" and len(st.tokens) == 15 and not st.bag
    counts = {}
    for k in st.tokens.values():
        counts[k] = counts.get(k, 0) + 1
    assert counts == game.token_counts
    assert sum(counts.values()) == 15
    # "shuffle": which kind lies in each treasure room, and which the players' squares get, changes from
    # game to game; over 120 seeds every kind reaches every room (without the shuffle each room would
    # always hold the same kind, and the players' tokens would always be the same eight)
    rooms, placed = [], set()
    for seed in range(120):
        s = game.new_state(seed)
        rooms.append([s.tokens[c] for c in game.castle.treasure])
        placed.add(tuple(s.bag))
    for i in range(len(game.castle.treasure)):
        assert {r[i] for r in rooms} == set(game.token_counts), f"room {i} saw only {sorted({r[i] for r in rooms})}"
    assert len(placed) > 100


@pytest.mark.seed("blackfire:13.2b")
def test_secret_placements_and_collisions():
    """Ledger: placements are secret until both players have placed; a square chosen twice
    sends the second token to the nearest free square."""
    game = make("blackfire")
    st = game.new_state(4)
    c = game.castle.placeable[40]
    st.apply(("place", c))
    assert st.view(0)["state"]["my_placements"] == [list(game.castle.xy(c))]
    assert st.view(1)["state"]["my_placements"] == [] and st.view(None)["state"]["placements"] == [1, 0]
    assert list(game.castle.xy(c)) not in st.view(1)["state"]["tokens"]
    for a in st.legal_actions()[:3]:
        st.apply(a)
    assert ("place", c) in st.legal_actions()  # red does not know the square is taken
    st.apply(("place", c))
    for a in st.legal_actions()[-3:]:
        st.apply(a)
    assert len(st.tokens) == 15 and c in st.tokens


@pytest.mark.seed("blackfire:14.1", "blackfire:15.1", "blackfire:16.1", "blackfire:17.1", "blackfire:18.1", "blackfire:19.1", "blackfire:20.1")
def test_setup_rolls_and_starting_positions():
    """Roll d4 for red's start, d4 for the open exit, a d6 for colours (even is green); all units on their
    start square; green starts at the centre with the orb and moves first."""
    game = make("blackfire")
    st = game.new_state(5)
    for _ in range(7):
        st.apply(st.legal_actions()[0])
    rig(st, (4, 3), (4, 2), (6, 4))
    st.apply(st.legal_actions()[0])
    assert st.red_start == 2 and st.exit == 1
    assert st.roles() == ("green", "red")  # Player 1 rolled 4: even
    castle = game.castle
    assert [u.cell for u in st.units] == [castle.green_start] * 3 + [castle.red_starts[2]] * 3
    assert st.orb_holder == UNITS["GS"] and st.current_seat() == 0
    st2 = game.new_state(5)
    for _ in range(7):
        st2.apply(st2.legal_actions()[0])
    rig(st2, (4, 1), (4, 1), (6, 3))
    st2.apply(st2.legal_actions()[0])
    assert st2.roles() == ("red", "green") and st2.current_seat() == 1


def test_bad_actions_raise():
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(0, 8))
    before = st.dumps()
    with pytest.raises(IllegalActionError):
        st.apply(("move", UNITS["RS"], sq(st, 5, 5)))
    with pytest.raises(IllegalActionError):
        st.apply(("move", UNITS["GS"], sq(st, 5, 1)))
    assert st.dumps() == before
