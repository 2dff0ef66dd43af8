"""Traps, spells, equipment, status effects and every kind of card effect."""

import pytest

from .helpers import fresh, give, pair_onto_pitfall, put, rolled, script


# -- Traps --------------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:50.1")
def test_traps_cost_nothing_and_go_anywhere_face_down():
    # "Traps cost no mana to place on the field and can be placed on any space on the field."
    st = fresh()
    st.mana[0] = 0
    give(st, 0, "pitfall")
    traps = [a for a in st.legal_actions() if a[0] == "trap"]
    assert len(traps) == 45
    st.apply(("trap", "pitfall", 40))
    assert st.view(0)["state"]["traps"] == [{"space": 40, "owner": 0, "card": "pitfall"}]
    assert st.view(1)["state"]["traps"] == [{"space": 40, "owner": 0, "card": None}]
    give(st, 0, "snare")
    assert ("trap", "snare", 40) not in st.legal_actions()  # ledger: one trap per space


@pytest.mark.seed("summoners-quest:50.2", "summoners-quest:50.3")
def test_trap_is_tripped_by_its_owner_and_negated_on_the_target_roll():
    # "they can be tripped by anyone, even the player that placed it" ... "a requirement of 3+ means
    # that the player must roll a 3 or higher on the 6 sided die to negate a trap's effect"
    st = fresh()
    st.traps[3] = ["pitfall", 0]
    rolled(st, 1, 2)
    script(st, 2)
    st.apply(("move", "P", 3, -1))
    assert st.life[0] == 8 and 3 not in st.traps and st.deck.discard_pile[-1] == "pitfall"
    st = fresh()
    st.traps[3] = ["pitfall", 1]
    rolled(st, 1, 2)
    script(st, 3)
    st.apply(("move", "P", 3, -1))
    assert st.life[0] == 10 and 3 not in st.traps


@pytest.mark.seed("summoners-quest:50.7", "summoners-quest:50.8")
def test_traveller_chooses_who_takes_the_trap_and_summons_are_affected_differently():
    # "If a player is traveling with a summon and they land on a trap they may choose which one of
    # them is to receive the effects" ... "Some traps effect summons differently"
    st = fresh()
    s = pair_onto_pitfall(st)
    assert st.stack[-1].kind == "trap_victim"
    assert set(st.legal_actions()) == {("victim", "P0"), ("victim", s)}
    script(st, 1)
    st.apply(("victim", s))
    assert st.summons[int(s[1:])].damage == 3 and st.life[0] == 10  # summons take 3, summoners 2


@pytest.mark.seed("summoners-quest:66.1", "summoners-quest:66.3")
def test_equipment_negates_a_trap_before_the_roll():
    # "equipment will first negate traps" ; "circumstantial effects (such as evading one trap)"
    st = fresh()
    st.equip[0] = ["yata_mirror"]
    st.traps[3] = ["fire_glyph", 1]
    rolled(st, 1, 2)
    script(st)  # no die may be rolled
    st.apply(("move", "P", 3, -1))
    assert st.life[0] == 10 and st.equip[0] == [] and 3 not in st.traps


def test_trap_negation_bonus_from_equipment():
    st = fresh()
    st.equip[0] = ["helm_of_darkness"]
    st.traps[3] = ["fire_glyph", 1]  # 5+
    rolled(st, 1, 2)
    script(st, 3)
    st.apply(("move", "P", 3, -1))
    assert st.life[0] == 10


@pytest.mark.seed("summoners-quest:66.1", "summoners-quest:66.4")
def test_traps_resolve_before_combat():
    # "The order of operations is as follows: Equipment Effects, traps, combat, and space effects."
    st = fresh()
    st.pos[1] = 5
    st.traps[5] = ["whirlpool", 1]
    rolled(st, 2, 3)
    script(st, 1)
    st.apply(("move", "P", 5, -1))
    assert st.pos[0] == 2 and st.combat is None and st.life == [10, 10]  # pushed 3 back, no combat, no draw
    assert st.hands[0] == []


# -- Spells ---------------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:52.2")
def test_spell_range_counts_spaces_and_closed_gates_block_it():
    # "A number in the range section denotes how many spaces away ... the spell may affect"
    st = fresh()
    give(st, 0, "fireball")
    st.pos[0], st.pos[1] = 5, 7
    st._legal = None
    assert ("cast", "fireball", "P1") in st.legal_actions()
    st.pos[1] = 8
    st._legal = None
    assert ("cast", "fireball", "P1") not in st.legal_actions()
    st.pos[0], st.pos[1] = 4, 33  # hall I beyond a closed gate
    st._legal = None
    assert ("cast", "fireball", "P1") not in st.legal_actions()
    st.gates = 1
    st._legal = None
    assert ("cast", "fireball", "P1") in st.legal_actions()


@pytest.mark.seed("summoners-quest:52.1", "summoners-quest:52.5")
def test_range_zero_means_own_space_and_spells_are_before_or_after_moving():
    # "Cards without a range or a range of 0 may only affect those in the same space"
    st = fresh()
    give(st, 0, "healing_light", "frost_nova")
    assert ("cast", "healing_light", "P0") in st.legal_actions()
    st.pos[1] = 1
    st._legal = None
    assert ("cast", "frost_nova", 1) in st.legal_actions()
    rolled(st, 1, 1)
    assert not any(a[0] == "cast" for a in st.legal_actions())
    st.apply(("move", "P", 2, -1))
    assert any(a[0] == "cast" for a in st.legal_actions())  # after movement


@pytest.mark.seed("summoners-quest:52.5", "summoners-quest:48.5")
def test_a_range_zero_card_is_never_aimed_at_another_space():
    # "Cards without a range or a range of 0 may only affect those in the same space that is occupied
    # by the player who is casting the spell."  Frost Giant's Frost Stomp (range 0, a whole space)
    # reaches its own space only; Haste (range 0) only its caster.
    st = fresh(3)
    st.mana[0] = 10
    giant = put(st, 0, "frost_giant", 9)
    u = int(giant[1:])
    give(st, 0, "haste")
    st.pos[0] = 5
    st.pos[1], st.pos[2] = 9, 10  # an enemy on the giant's space, another one space away
    st._legal = None
    acts = st.legal_actions()
    assert ("ability", u, 9) in acts
    assert ("ability", u, 10) not in acts and ("ability", u, 8) not in acts
    assert [a for a in acts if a[0] == "cast"] == [("cast", "haste", "P0")]
    st.pos[1] = 8  # now nobody shares the giant's space: nothing to stomp
    st._legal = None
    assert not [a for a in st.legal_actions() if a[0] == "ability" and a[1] == u]
    st.apply(("cast", "haste", "P0"))
    assert st.has_status("P0", "hasted") and not st.has_status("P1", "hasted") and not st.has_status("P2", "hasted")


@pytest.mark.seed("summoners-quest:28.2", "summoners-quest:52.4", "summoners-quest:52.6")
def test_space_spell_hits_enemy_pieces_only_and_spell_is_discarded():
    st = fresh()
    give(st, 0, "lightning_storm")
    st.pos[1] = 3
    s = put(st, 0, "hydra", 3)
    st.apply(("cast", "lightning_storm", 3))
    assert st.life[1] == 8 and st.summons[int(s[1:])].damage == 0
    assert st.mana[0] == 3 and st.deck.discard_pile[-1] == "lightning_storm"  # cost 4, temple -1


def test_silenced_summoner_cannot_cast():
    st = fresh()
    give(st, 0, "healing_light")
    st.status[0] = [["silenced", 1]]
    assert not any(a[0] == "cast" for a in st.legal_actions())


# -- Equipment ---------------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:62.1", "summoners-quest:54.3b")
def test_equipping_costs_mana_and_three_items_at_most():
    # "A player may only equip up to 3 items at any one time."
    st = fresh()
    st.pos[0] = 5
    st.mana[0] = 20
    s = put(st, 0, "oni", 5)
    give(st, 0, "mjolnir", "aegis", "kanabo", "talaria")
    st.apply(("equip", "mjolnir", "P0"))
    assert st.mana[0] == 17 and st.equip[0] == ["mjolnir"]
    st.apply(("equip", "aegis", s))
    st.apply(("equip", "kanabo", "P0"))
    assert not any(a[0] == "equip" for a in st.legal_actions())
    st.apply(("unequip", "kanabo"))
    assert ("equip", "talaria", "P0") in st.legal_actions()


@pytest.mark.seed("summoners-quest:54.3b")
def test_an_item_costs_its_mana_to_equip_and_its_ability_costs_again():
    # "Each equipment card has a required cost to use."  Ledger "Equipment cost": the card's cost is
    # paid to equip it (1 less on a mana temple, never below 1), and its ability costs again per use.
    st = fresh()
    cards = st.game.cards
    cost, ab = cards["mjolnir"].cost, cards["mjolnir"].ability
    st.pos[0] = 5
    give(st, 0, "mjolnir")
    st.mana[0] = cost - 1
    st._legal = None
    assert not [a for a in st.legal_actions() if a[0] == "equip"]  # one short: not offered
    st.mana[0] = cost + 5
    st._legal = None
    st.apply(("equip", "mjolnir", "P0"))
    assert st.mana[0] == 5 and st.used[0] == cost
    st = fresh()  # on the own temple: 1 less
    give(st, 0, "mjolnir")
    st.mana[0] = cost
    st._legal = None
    st.apply(("equip", "mjolnir", "P0"))
    assert st.mana[0] == 1 and st.used[0] == cost - 1
    st.pos[1] = 0
    st.mana[0] = ab.cost
    st._legal = None
    use = [a for a in st.legal_actions() if a[0] == "use"]
    assert use
    st.apply(use[0])
    assert st.mana[0] == 0 and st.used[0] == cost - 1 + ab.cost


@pytest.mark.seed("summoners-quest:54.9b", "summoners-quest:54.9")
def test_equipping_a_monster_needs_it_within_one_space():
    # "Equipping a monster requires the summoner token to be at least within one space of the monster."
    st = fresh()
    near = put(st, 0, "oni", 1)
    far = put(st, 0, "talos", 2)
    give(st, 0, "aegis")
    acts = st.legal_actions()
    assert ("equip", "aegis", near) in acts and ("equip", "aegis", far) not in acts


@pytest.mark.seed("summoners-quest:54.9b")
def test_within_one_space_counts_along_the_board_round_the_ring_and_through_open_gates():
    st = fresh()
    st.mana[0] = 10
    give(st, 0, "aegis")
    here = put(st, 0, "oni", 0)  # the same space
    behind = put(st, 0, "kappa", 31)  # one space counter-clockwise, across the ring's seam
    two = put(st, 0, "tengu", 30)
    acts = st.legal_actions()
    assert ("equip", "aegis", here) in acts and ("equip", "aegis", behind) in acts
    assert ("equip", "aegis", two) not in acts
    st = fresh()
    st.mana[0] = 10
    give(st, 0, "aegis")
    st.pos[0] = 4  # the portal of gate 1
    gated = put(st, 0, "oni", 32)  # gate 1 itself, one step from its portal
    st._legal = None
    assert ("equip", "aegis", gated) not in st.legal_actions()  # a closed gate is a wall
    st.gates = 1
    st._legal = None
    assert ("equip", "aegis", gated) in st.legal_actions()
    st.apply(("equip", "aegis", gated))
    assert st.summons[int(gated[1:])].equip == ["aegis"]


@pytest.mark.seed("summoners-quest:54.7")
def test_one_at_will_equipment_ability_per_turn_and_mjolnirs_lightning_bolt():
    # "Only one equipment's "at-will" ability may be used per turn"
    st = fresh()
    st.equip[0] = ["mjolnir", "bow_of_artemis"]
    st.pos[1] = 3
    st._legal = None
    acts = st.legal_actions()
    assert ("use", "mjolnir", "P1") in acts and ("use", "bow_of_artemis", "P1") in acts
    st.apply(("use", "mjolnir", "P1"))
    assert st.life[1] == 7 and st.mana[0] == 4
    assert not any(a[0] == "use" for a in st.legal_actions())
    for _ in range(2):
        st.phase = "post"
        st._legal = None
        st.apply(("end",))
    assert any(a[0] == "use" for a in st.legal_actions())


@pytest.mark.seed("summoners-quest:54.4", "summoners-quest:54.8")
def test_expended_equipment_is_discarded_after_use():
    # "Some are expended upon their use"
    st = fresh()
    st.life[0] = 5
    st.equip[0] = ["golden_fleece"]
    st._legal = None
    st.apply(("use", "golden_fleece", "P0"))
    assert st.life[0] == 9 and st.equip[0] == [] and st.deck.discard_pile[-1] == "golden_fleece"


# -- Status effects ---------------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:64.2")
def test_a_player_holds_three_effects_at_most():
    # "A player may only be affected by up to 3 effects at once."
    st = fresh()
    for name in ("poisoned", "weakened", "slowed", "stunned"):
        st.add_status("P1", name, 2)
    assert [s[0] for s in st.status[1]] == ["poisoned", "weakened", "slowed"]
    st.add_status("P1", "poisoned", 4)  # ledger: re-applying refreshes
    assert st.status[1][0] == ["poisoned", 4]


@pytest.mark.seed("summoners-quest:64.4")
def test_a_monster_holds_one_effect_and_a_new_one_replaces_it():
    # "Any new effect will override a previous effect on a monster."
    st = fresh()
    s = put(st, 1, "oni", 5)
    st.add_status(s, "poisoned", 2)
    st.add_status(s, "stunned", 1)
    m = st.summons[int(s[1:])]
    assert (m.status, m.status_turns) == ("stunned", 1)


@pytest.mark.parametrize("armour", ["shielded", "aegis"])
def test_poison_is_damage_that_shielded_and_guard_reduce(armour):
    # Designed (docs/rules, Status effects): poison deals 1 damage, and shielded or a guard item takes 1 off
    st = fresh()
    if armour == "shielded":
        st.add_status("P1", "shielded", 3)
    else:
        st.equip[1] = ["aegis"]
    st.add_status("P1", "poisoned", 2)
    st.phase = "post"
    st._legal = None
    st.apply(("end",))  # seat 1's turn starts: the poison bites for nothing
    assert st.active == 1 and st.life[1] == 10 and st.has_status("P1", "poisoned")


def test_statuses_tick_at_the_end_of_their_owners_turn_and_poison_at_its_start():
    st = fresh()
    st.add_status("P1", "poisoned", 2)
    st.add_status("P1", "stunned", 1)
    st.phase = "post"
    st.apply(("end",))  # seat 1 starts: poison bites
    assert st.life[1] == 9
    rolled(st, 3, 3)
    assert st.legal_actions() == (("stay",),)
    st.apply(("stay",))
    st.apply(("end",))
    assert st.status[1] == [["poisoned", 1]]


# -- Status durations: a status lasts through the number of its holder's turns the card says ---------
def end(st):
    st.phase = "post"
    st._legal = None
    st.apply(("end",))


def next_own_turn(st):
    """End seat 0's turn and seat 1's (2 players): seat 0's next turn starts."""
    end(st)
    end(st)
    assert st.active == 0


def spring_on_own_turn(trap, who):
    """Seat 0's summoner (or its summon) lands on seat 1's face-down ``trap`` and fails the roll."""
    st = fresh()
    st.traps[3] = [trap, 1]
    pid = "P0" if who == "summoner" else put(st, 0, "oni", 1)  # oni: a normal mover
    rolled(st, 1, 2 if who == "summoner" else 1)
    script(st, 1)  # the negation roll fails
    st.apply(("move", "P" if pid == "P0" else pid, 3, -1))
    assert st.rng.faces == [] and 3 not in st.traps
    return st, pid


def moves_of(st, pid):
    return [a for a in st.legal_actions() if a[0] == "move" and a[1] == ("P" if pid == "P0" else pid)]


ONE_TURN_TRAPS = [  # (trap, victim, status): every 1-turn status a trap gives
    ("snare", "summoner", "stunned"),
    ("snare", "summon", "stunned"),
    ("frost_rune", "summoner", "stunned"),
    ("frost_rune", "summon", "stunned"),
    ("quicksand", "summon", "stunned"),
    ("curupira_tracks", "summoner", "reversed"),
    ("reverse_current", "summoner", "reversed"),
    ("reverse_current", "summon", "reversed"),
    ("lure_of_the_iara", "summoner", "reversed"),
    ("lure_of_the_iara", "summon", "reversed"),
]


@pytest.mark.parametrize("trap, who, status", ONE_TURN_TRAPS)
def test_a_one_turn_status_from_a_trap_holds_through_the_victims_next_turn(trap, who, status):
    # Traps spring on the victim's own turn, after its move; "for 1 turn" is one whole turn of the
    # victim, so it is the victim's next turn that is stunned or reversed (ledger: status durations).
    st, pid = spring_on_own_turn(trap, who)
    next_own_turn(st)
    assert st.has_status(pid, status)
    here = st.pos_of(pid)
    rolled(st, 3, 3)
    if status == "stunned":
        assert moves_of(st, pid) == []
    else:  # reversed: backwards only (counter-clockwise), never clockwise
        assert moves_of(st, pid) and all(a[3] == -2 and a[2] == st.game.board.backward(here, 6) for a in moves_of(st, pid))
    next_own_turn(st)
    assert not st.has_status(pid, status)
    rolled(st, 3, 3)
    assert any(a[3] != -2 for a in moves_of(st, pid))


def test_quicksand_slows_the_summoner_for_its_next_two_turns():
    st, pid = spring_on_own_turn("quicksand", "summoner")
    for _ in range(2):
        next_own_turn(st)
        here = st.pos[0]
        rolled(st, 3, 3)
        assert [a[2] for a in moves_of(st, pid)] == [here + 4]  # 6 - 2
    next_own_turn(st)
    assert not st.has_status(pid, "slowed")


def bites(st, turns=4):
    """The summoner's life at the start of each of seat 0's next ``turns`` turns."""
    out = []
    for _ in range(turns):
        next_own_turn(st)
        out.append(st.life[0])
    return out


def test_thorn_hedge_poison_bites_once():
    st, _ = spring_on_own_turn("thorn_hedge", "summoner")
    assert st.life[0] == 9  # damage 1
    assert bites(st) == [8, 8, 8, 8]


@pytest.mark.seed("summoners-quest:64.1")
def test_poisoned_two_turns_bites_twice_from_a_trap_as_from_a_spell():
    # Poison Darts (trap, "poisoned for 2 turns") and Poison Cloud (spell, "poisoned for 2 turns")
    st, _ = spring_on_own_turn("poison_darts", "summoner")
    darts = bites(st)
    st = fresh()
    st.pos[1] = 2
    end(st)  # seat 1's turn: it casts Poison Cloud on seat 0's space
    give(st, 1, "poison_cloud")
    st.apply(("cast", "poison_cloud", 0))
    st.phase = "post"
    st._legal = None
    st.apply(("end",))  # seat 0's turn starts: the first bite
    cloud = [st.life[0]] + bites(st, 3)
    assert darts == cloud == [9, 8, 8, 8]


def test_self_statuses_count_the_turn_they_are_cast_only_before_the_roll():
    # Haste ("hasted for 2 turns") cast before the roll speeds this move and the next; cast after the
    # move, it speeds the next two.
    st = fresh()
    give(st, 0, "haste", "haste")
    st.apply(("cast", "haste", "P0"))
    rolled(st, 1, 1)
    assert [a[2] for a in moves_of(st, "P0")] == [4]  # 2 + 2
    next_own_turn(st)
    rolled(st, 1, 1)
    assert [a[2] for a in moves_of(st, "P0")] == [4]
    next_own_turn(st)
    assert not st.has_status("P0", "hasted")
    st.phase = "post"
    st._legal = None
    st.apply(("cast", "haste", "P0"))  # after the move: the next two turns
    for _ in range(2):
        next_own_turn(st)
        here = st.pos[0]
        rolled(st, 1, 1)
        assert [a[2] for a in moves_of(st, "P0")] == [here + 4]
    next_own_turn(st)
    assert not st.has_status("P0", "hasted")


# -- the effect vocabulary, one scenario per kind ----------------------------------------------------
@pytest.mark.parametrize("effect, check", [
    (("damage", 3), lambda st: st.life[1] == 8),  # Aegis guards 1
    (("heal", 2), lambda st: st.life[1] == 10),
    (("push", 2), lambda st: st.pos[1] == 8),
    (("advance", 2), lambda st: st.pos[1] == 12),
    (("portal",), lambda st: st.pos[1] == 12),
    (("status", "weakened", 2), lambda st: st.status[1] == [["weakened", 2]]),
    (("discard", 1), lambda st: st.hands[1] == ["fireball"] or st.hands[1] == ["gust"]),
    (("drain", 4), lambda st: st.mana[1] == 2 and st.used[1] == 4),
    (("shatter",), lambda st: st.equip[1] == [] and st.deck.discard_pile[-1] == "aegis"),
])
@pytest.mark.seed("summoners-quest:54.8")
def test_piece_effects(effect, check):
    st = fresh()
    st.pos[1] = 10
    st.equip[1] = ["aegis"]
    st.deck.draw_pile.remove("aegis")
    give(st, 1, "fireball", "gust")
    st.apply_effects((effect,), 0, "P1")
    assert check(st)


@pytest.mark.seed("summoners-quest:64.4")
def test_heal_and_cleanse_on_a_summon():
    st = fresh()
    s = put(st, 0, "hydra", 3)
    m = st.summons[int(s[1:])]
    m.damage, m.status, m.status_turns = 4, "poisoned", 2
    st.apply_effects((("heal", 3), ("cleanse",)), 0, s)
    assert m.damage == 1 and (m.status, m.status_turns) == (None, 0)


@pytest.mark.seed("summoners-quest:64.4")
@pytest.mark.parametrize("how", ["purify", "omamori"])
def test_cleansing_a_summon_clears_its_status_and_its_turn_count(how):
    # Issue 29 item 10: Purify (spell) or Omamori (item) on a summon cleared its status but left its
    # count, so the view showed ``status: None, status_turns: 2``. A cleansed summon has neither.
    st = fresh()
    s = put(st, 0, "oni", 0)
    st.add_status(s, "poisoned", 2)
    if how == "purify":
        give(st, 0, "purify")
        st.apply(("cast", "purify", s))
    else:
        st.summons[int(s[1:])].equip.append("omamori")
        st.deck.draw_pile.remove("omamori")
        st.apply(("use", "omamori", s))
    shown = next(m for m in st.view(0)["state"]["summons"] if m["uid"] == int(s[1:]))
    assert (shown["status"], shown["status_turns"]) == (None, 0)
    assert not st.has_status(s, "poisoned")


def test_caster_effects_draw_and_mana():
    st = fresh()
    st.mana[0], st.used[0] = 1, 5
    st.apply_effects((("draw", 2), ("mana", 3)), 0, "P0")
    assert len(st.hands[0]) == 2 and st.mana[0] == 4 and st.used[0] == 2


def test_break_trap_effect():
    st = fresh()
    give(st, 0, "dispel_trap")
    st.traps[2] = ["snare", 1]
    st.apply(("cast", "dispel_trap", 2))
    assert 2 not in st.traps


def test_combat_effects_roll_and_attack_bonus():
    st = fresh()
    s = put(st, 0, "lobisomem", 2)
    st.pos[1] = 5
    rolled(st, 1, 2)
    st.apply(("move", s, 5, -1))
    script(st, 2, 2)  # 2 + 1 (Moon Frenzy) beats 2
    st.apply(("boost", int(s[1:])))
    assert st.life[1] == 5  # attack 4 + 1


def test_a_push_never_moves_anyone_out_of_the_chamber():
    st = fresh()
    st.pos[1] = 44
    st.apply_effects((("push", 3),), 0, "P1")
    assert st.pos[1] == 44


def test_steadfast_summons_cannot_be_pushed():
    st = fresh()
    s = put(st, 1, "minotaur", 10)
    st.apply_effects((("push", 3),), 0, s)
    assert st.pos_of(s) == 10


def test_trapsense_summons_negate_traps_more_easily():
    st = fresh()
    s = put(st, 0, "caipora", 1)  # trapsense: +2 to negation rolls
    st.traps[3] = ["fire_glyph", 1]  # 5+
    rolled(st, 1, 1)
    script(st, 3)
    st.apply(("move", s, 3, -1))
    assert st.summons[int(s[1:])].damage == 0 and 3 not in st.traps


def test_a_trap_can_defeat_the_moving_summoner():
    st = fresh()
    st.life[0] = 2
    s = pair_onto_pitfall(st)
    script(st, 1)
    st.apply(("victim", "P0"))
    assert st.is_over() and st.results().winners == (1,)


def test_a_combat_ability_can_finish_the_opponent_before_the_dice():
    st = fresh()
    s = put(st, 0, "kuchisake_onna", 2)
    st.life[1] = 1
    st.pos[1] = 5
    rolled(st, 1, 2)
    st.apply(("move", s, 5, -1))
    script(st)  # no dice are rolled
    st.apply(("boost", int(s[1:])))
    assert st.is_over() and st.results().winners == (0,)
