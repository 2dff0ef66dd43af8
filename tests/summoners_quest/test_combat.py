"""Combat, post-combat push-backs and the chamber of victory, with scripted dice."""

import pytest

from .helpers import fresh, give, put, rolled, script

CH = 44


def attack_setup(players=2):
    st = fresh(players)
    st.pos[1] = 5
    rolled(st, 2, 3)
    return st


@pytest.mark.seed("summoners-quest:32.3", "summoners-quest:42.1", "summoners-quest:44.1", "summoners-quest:46.2", "summoners-quest:58.1", "summoners-quest:66.6")
def test_moving_onto_an_enemy_starts_combat_and_the_winner_deals_damage():
    # "A player attacks when they move their token or summon onto a space occupied by ... another
    # player.  ... each player involved rolls a d6; the one with the higher roll wins"
    # "If the attacker wins, the defending summoner token or summon is moved backwards one space,
    # but it does not activate space effects."
    st = attack_setup()
    st.traps[4] = ["pitfall", 0]
    script(st, 6, 1)
    st.apply(("move", "P", 5, -1))
    assert st.life == [10, 8] and st.pos == [5, 4]
    assert 4 in st.traps and not st.stack  # no trap, no portal prompt for the pushed defender
    assert len(st.hands[0]) == 1  # the attacker then gets the focus point's space effect
    assert st.usage["combat:won"] == [1, 0]


@pytest.mark.seed("summoners-quest:46.1", "summoners-quest:32.3")
def test_losing_attacker_is_pushed_back_and_takes_that_space_effect():
    # "If the attacker loses combat, they must move back one space ... and then can activate the
    # space effect on the space they are pushed back to"
    st = attack_setup()
    st.traps[4] = ["pitfall", 1]
    script(st, 1, 6)
    st.apply(("move", "P", 5, -1))
    assert st.life == [8, 10] and st.pos == [4, 5]
    assert 4 in st.traps  # ledger: only the space effect, not traps or combat
    assert st.stack[-1].kind == "portal" and st.stack[-1].seat == 0


@pytest.mark.seed("summoners-quest:42.3")
def test_ties_are_rerolled():
    st = attack_setup()
    script(st, 3, 3, 5, 2)
    st.apply(("move", "P", 5, -1))
    assert st.life == [10, 8] and st.usage["rule:combat_tie"] == [1, 0]


def test_ties_go_to_the_defender_in_the_variant():
    st = fresh(2, variant="defender-ties")
    st.pos[1] = 5
    rolled(st, 2, 3)
    script(st, 3, 3)
    st.apply(("move", "P", 5, -1))
    assert st.life == [8, 10]


@pytest.mark.seed("summoners-quest:42.4")
def test_damage_summon_attacker_deals_its_attack():
    # "If the attacker is a summon card, the damage dealt is specified by the "Attack" entry"
    st = fresh()
    s = put(st, 0, "oni", 2)
    st.pos[1] = 5
    rolled(st, 1, 2)
    script(st, 6, 1)
    st.apply(("move", s, 5, -1))
    assert st.stack[-1].kind == "precombat"  # Oni's combat ability may be used first
    st.apply(("fight",))
    assert st.life[1] == 6


@pytest.mark.seed("summoners-quest:42.6")
def test_damage_summoner_against_summon_equals_current_life():
    # "If a Summoner token attacks a summon card, they deal damage equal to their current number of
    # life stones, instead."
    st = fresh()
    st.life[0] = 7
    put(st, 1, "cerberus", 5)
    st.mana[1] = 0  # Cerberus cannot pay for its ability
    rolled(st, 2, 3)
    script(st, 6, 1)
    st.apply(("move", "P", 5, -1))
    assert not st.summons


@pytest.mark.seed("summoners-quest:42.5")
def test_damage_summoner_is_two_plus_modifiers():
    # "the damage dealt is a base of 2 plus any modifiers from spells or equipment"
    st = attack_setup()
    st.equip[0] = ["mjolnir"]
    script(st, 6, 1)
    st.apply(("move", "P", 5, -1))
    assert st.life[1] == 7


@pytest.mark.seed("summoners-quest:42.2")
def test_attacker_chooses_the_target_among_several():
    # "the attacker chooses which one to attack"
    st = attack_setup(3)
    st.pos[2] = 5
    st.apply(("move", "P", 5, -1))
    assert st.stack[-1].kind == "attack"
    assert set(st.legal_actions()) == {("attack", "P0", "P1"), ("attack", "P0", "P2")}
    script(st, 6, 1)
    st.apply(("attack", "P0", "P2"))
    assert st.life == [10, 10, 8] and st.pos[1] == 5


@pytest.mark.seed("summoners-quest:44.2", "summoners-quest:44.3")
def test_defender_may_defend_with_a_summon():
    # "the defender may choose to defend using their summon, forcing the attacker to attack the
    # summon instead of the Summoner"
    st = attack_setup()
    s = put(st, 1, "talos", 5)
    st.mana[1] = 0
    st.apply(("move", "P", 5, -1))
    assert set(st.legal_actions()) == {("attack", "P0", "P1"), ("attack", "P0", s)}
    st.apply(("attack", "P0", "P1"))
    pr = st.stack[-1]
    assert pr.kind == "defend" and pr.seat == 1 and st.current_seat() == 1
    assert set(st.legal_actions()) == {("defend", int(s[1:])), ("no_defend",)}
    script(st, 1, 6)
    st.apply(("defend", int(s[1:])))
    assert st.life == [7, 10]  # Talos (attack 3) won and hit the summoner


@pytest.mark.seed("summoners-quest:48.6")
def test_combat_abilities_are_used_before_the_dice():
    # "All abilities must be activated prior to rolling the dice to determine a winner in combat."
    st = fresh()
    s = put(st, 0, "oni", 2)
    st.pos[1] = 5
    rolled(st, 1, 2)
    st.apply(("move", s, 5, -1))
    uid = int(s[1:])
    assert set(st.legal_actions()) == {("boost", uid), ("fight",)}
    script(st, 6, 1)
    st.apply(("boost", uid))
    assert st.mana[0] == 4 and st.life[1] == 4  # Attack 4 + Kanabo Smash 2


def test_defender_combat_ability_and_roll_bonus():
    st = attack_setup()
    s = put(st, 1, "cerberus", 5)
    st.apply(("move", "P", 5, -1))
    st.apply(("attack", "P0", "P1"))
    st.apply(("defend", int(s[1:])))
    assert st.current_seat() == 1 and ("boost", int(s[1:])) in st.legal_actions()
    script(st, 4, 3)  # 3 + Three Heads 2 beats 4
    st.apply(("boost", int(s[1:])))
    assert st.life[0] == 7


# -- The chamber of victory ------------------------------------------------------------------
def end(st):
    st.phase = "post"
    st._legal = None
    st.apply(("end",))


@pytest.mark.seed("summoners-quest:20.3b", "summoners-quest:38.4")
def test_hold_the_chamber_three_turns_from_the_following_turn():
    # "The chamber of victory is a single, large space that must be held for 3 turns, starting at
    # the beginning of the following turn."
    st = fresh()
    st.pos[0] = CH
    for expected in (1, 2, 3):
        end(st)  # seat 0 ends, seat 1 plays
        end(st)  # seat 1 ends, seat 0 starts: the hold counts
        assert st.hold[0] == expected and not st.is_over()
    end(st)
    assert st.results().winners == (0,) and st.results().reason == "held the chamber of victory"


def test_summons_do_not_hold_the_chamber():
    st = fresh()
    put(st, 0, "oni", CH)
    for _ in range(8):
        end(st)
    assert not st.is_over() and st.hold == [0, 0]


@pytest.mark.seed("summoners-quest:38.6", "summoners-quest:38.10")
def test_defeated_occupant_is_evicted_to_the_attackers_portal_and_loses_the_count():
    # "placed back to the portal just outside of the gate that the player who initiated combat
    # entered from" ... "If evicted by any means, the amount of turns ... is reset"
    st = fresh()
    st.gates = 0b0010
    st.pos[1], st.hold[1] = CH, 2
    st.pos[0] = 12
    rolled(st, 2, 2)
    script(st, 6, 1)
    st.apply(("move", "P", CH, 1))
    assert st.pos[0] == CH and st.pos[1] == 12 and st.hold[1] == 0
    assert st.usage["rule:eviction"] == [1, 0]


HALL_B_OF_GATE_1 = 32 + 3 * 1 + 2  # the last hall before the chamber on the attacker's gate (portal 12)


def test_a_steadfast_summon_that_loses_attacking_into_the_chamber_moves_back_too():
    # "If the attacker loses combat, they must move back one space from where they initially landed"
    # Ledger: steadfast ("cannot be pushed back") keeps its ground on the ring, but never keeps an
    # attacker in the chamber, where nothing leaves by dice and it could never move again.
    st = fresh()
    st.gates = 0b0010
    st.pos[1], st.hold[1] = CH, 2
    st.life[1] = 3  # the winning summoner deals its life (3) to the Minotaur (life 5): it survives
    s = put(st, 0, "minotaur", 12)
    st.mana[0] = st.mana[1] = 0
    rolled(st, 2, 2)
    script(st, 1, 6)
    st.apply(("move", s, CH, 1))
    assert st.rng.faces == [] and st.usage["combat:lost"] == [1, 0]
    assert st.pos_of(s) == HALL_B_OF_GATE_1 and st.pos[1] == CH and st.hold[1] == 2
    rolled(st, 1, 1)  # on a later turn it can move again (toward the chamber: the halls are one-way)
    assert ("move", s, CH, -1) in st.legal_actions()
    # and on the ring the steadfast attacker still holds its ground (the movement note)
    st = fresh()
    s = put(st, 0, "minotaur", 2)
    st.mana[0] = 0
    st.pos[1], st.life[1] = 5, 3
    rolled(st, 1, 2)
    script(st, 1, 6)
    st.apply(("move", s, 5, -1))
    assert st.usage["combat:lost"] == [1, 0] and st.pos_of(s) == 5


def test_losing_attacker_in_the_chamber_goes_back_to_its_hall():
    st = fresh()
    st.gates = 0b0010
    st.pos[1], st.hold[1] = CH, 2
    st.pos[0] = 12
    rolled(st, 2, 2)
    script(st, 1, 6)
    st.apply(("move", "P", CH, 1))
    assert st.pos[0] == 32 + 3 * 1 + 2 and st.pos[1] == CH and st.hold[1] == 2




def monster_in_the_chamber():
    """Seat 1's summoner holds the chamber (hold 1) with Talos; seat 0's summoner at portal 12 rolls 4."""
    st = fresh()
    st.gates = 0b0010
    st.pos[1], st.hold[1] = CH, 1
    s = put(st, 1, "talos", CH)
    st.mana[1] = 0  # no combat ability prompt: the scripted dice decide the fight
    st.pos[0] = 12
    rolled(st, 2, 2)
    return st, s


@pytest.mark.seed("summoners-quest:38.7")
def test_monster_defending_in_the_chamber_moves_the_attacker_out():
    # "If a player in the victory space has a monster with them and the monster loses, the attacker
    # moves one space outside of the victory space. On the next turn, the attacking monster may
    # reenter but the defending player stays in the victory space."
    st, s = monster_in_the_chamber()
    uid = int(s[1:])
    st.life[0] = 4  # a summoner deals its life to a summon: 4 < Talos's 6, so the monster survives
    script(st, 6, 1)  # scripted before the move: no die is rolled until the combat dice
    st.apply(("move", "P", CH, 1))
    st.apply(("attack", "P0", "P1"))
    st.apply(("defend", uid))
    assert st.rng.faces == [] and not st.stack  # the fight was decided on these dice
    assert st.usage["combat:won"] == [1, 0]
    assert st.pos[0] == HALL_B_OF_GATE_1 and st.pos[1] == CH and st.hold[1] == 1
    assert st.summons[uid].pos == CH and st.summons[uid].damage == 4


def test_a_monster_destroyed_defending_in_the_chamber_still_moves_the_attacker_out():
    # The same sentence when the winner's damage destroys the monster (a summoner at full life deals
    # 10 to Talos): the monster still lost, so the attacker still moves one space outside.
    for target in ("defend", "attack"):
        st, s = monster_in_the_chamber()
        uid = int(s[1:])
        script(st, 6, 1)
        st.apply(("move", "P", CH, 1))
        if target == "defend":  # the occupant's monster takes the fight for it
            st.apply(("attack", "P0", "P1"))
            st.apply(("defend", uid))
        else:  # the attacker picks the monster itself
            st.apply(("attack", "P0", s))
        assert st.rng.faces == [] and uid not in st.summons
        assert st.pos[0] == HALL_B_OF_GATE_1, target
        assert st.pos[1] == CH and st.hold[1] == 1


def test_every_summoner_in_the_chamber_counts_its_own_hold():
    # Ledger: two summoners can share the chamber after a monster's defeat; each counts.
    st = fresh()
    st.pos[0] = st.pos[1] = CH
    end(st)
    end(st)
    assert st.hold == [1, 1]


GATE_3 = 2  # the gate of the portal at space 20: gate space 38, halls 39 and 40
PORTAL_OF_GATE_3 = 20


def _summoned_in_the_hall(attack_roll: int, defend_roll: int, occupant_monster: bool = False, occupant_life: int = 10):
    """Player 1 stands in hall a behind gate 3 (open) and summons Huldra there; Huldra then walks into
    the chamber, held by player 2 (alone, or with its own monster that Huldra attacks)."""
    st = fresh()
    st.gates = 1 << GATE_3
    st.pos[0] = 39
    st.entry["P0"] = GATE_3
    st.pos[1], st.hold[1], st.life[1] = CH, 2, occupant_life
    give(st, 0, "huldra")
    st.mana[0] = 6
    st._legal = None
    st.apply(("summon", "huldra"))
    uid = max(st.summons)
    target = "P1"
    if occupant_monster:
        target = put(st, 1, "tanuki", CH)  # no combat ability: no prompt before the dice
    rolled(st, 1, 2)
    script(st, attack_roll, defend_roll)
    st.apply(("move", f"S{uid}", CH, -1))
    if st.stack and st.stack[-1].kind == "attack":
        st.apply(("attack", f"S{uid}", target))
    if st.stack and st.stack[-1].kind == "defend":
        st.apply(("no_defend",))
    return st, f"S{uid}"


@pytest.mark.seed("summoners-quest:38.6")
def test_a_summon_summoned_in_a_hall_evicts_the_occupant_to_the_portal_of_its_own_gate():
    # "placed back to the portal just outside of the gate that the player who initiated combat entered
    # from": a summon that appeared in the halls entered by its summoner's gate (gate 3 here), not gate 1.
    st, huldra = _summoned_in_the_hall(6, 1)
    assert st.pos_of(huldra) == CH
    assert st.pos[1] == PORTAL_OF_GATE_3 and st.hold[1] == 0


@pytest.mark.seed("summoners-quest:38.7", "summoners-quest:46.1")
def test_a_summon_summoned_in_a_hall_that_loses_in_the_chamber_goes_back_to_its_own_last_hall():
    # "If the attacker loses combat, they must move back one space": out of the chamber onto the last
    # hall of the gate it came in by (40 behind gate 3), never behind a closed gate.
    st, huldra = _summoned_in_the_hall(1, 6, occupant_life=1)  # the winner deals its 1 life: Huldra lives
    assert st.pos_of(huldra) == 40 and st.pos[1] == CH and st.hold[1] == 2
    # and when it beats a monster beside its summoner, it is the one that moves one space outside
    st, huldra = _summoned_in_the_hall(6, 1, occupant_monster=True)
    assert st.pos_of(huldra) == 40 and st.pos[1] == CH


@pytest.mark.seed("summoners-quest:38.6")
def test_a_summon_summoned_in_the_chamber_counts_its_summoners_gate():
    st = fresh()
    st.gates = 1 << GATE_3
    st.pos[0] = CH
    st.entry["P0"] = GATE_3
    give(st, 0, "huldra")
    st.mana[0] = 6
    st._legal = None
    st.apply(("summon", "huldra"))
    assert st.entry[f"S{max(st.summons)}"] == GATE_3
