"""Rule scenarios, quoting the seed (seeds/004), from explicit positions with scripted dice."""

import pytest

from boardlab.engine import make

from .helpers import fresh, give, put, rolled, script

CH = 44  # the chamber of victory
GATE0 = 32  # gate of the portal at space 4


# -- Setup --------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:16.1", "summoners-quest:17.1", "summoners-quest:22.5", "summoners-quest:56.1", "summoners-quest:58.1")
def test_setup_life_mana_and_starting_hand():
    # "Each player gets 10 life stones and 6 mana stones."  Ledger: 3 starting cards.
    st = make("summoners-quest", players=3).new_state(5)
    assert st.life == [10] * 3 and st.mana == [6] * 3 and st.used == [0] * 3
    assert [len(h) for h in st.hands] == [3, 3, 3]
    assert len(st.deck.draw_pile) == 91
    st = make("summoners-quest", players=3, variant="empty-hands").new_state(5)
    assert st.hands == [[], [], []]


@pytest.mark.seed("summoners-quest:22.1", "summoners-quest:22.3b")
def test_order_ties_reroll():
    # "If two or more players tie, they roll to break the tie amongst them, while still remaining
    # within the same turn as they originally rolled."
    st = fresh(3)
    script(st, 4, 4, 2, 1, 5)
    assert st.roll_order([0, 1, 2]) == [1, 0, 2]
    script(st, 3, 3, 3, 2, 2, 5, 6, 1)
    assert st.roll_order([0, 1, 2]) == [2, 0, 1]


@pytest.mark.seed("summoners-quest:22.3b")
def test_a_tie_is_broken_by_the_re_roll_and_keeps_its_place_in_the_order():
    # A tie in the middle: seats 1 and 2 rolled 3 between a 5 and a 1.  Their re-roll decides only
    # their own order (the 6 does not lift seat 2 above seat 0), and seat 2 wins it.
    st = fresh(4)
    script(st, 5, 3, 3, 1, 1, 6)
    assert st.roll_order([0, 1, 2, 3]) == [0, 2, 1, 3]
    # the same tie re-rolled the other way round keeps the seats' own order
    script(st, 5, 3, 3, 1, 6, 1)
    assert st.roll_order([0, 1, 2, 3]) == [0, 1, 2, 3]
    # a tie at the bottom between three: a second tie among two of them is re-rolled again
    script(st, 6, 2, 2, 2, 4, 4, 1, 2, 5)
    assert st.roll_order([0, 1, 2, 3]) == [0, 2, 1, 3]


@pytest.mark.seed("summoners-quest:30.1", "summoners-quest:22.4b")
def test_temple_choice():
    # "Each player chooses a starting space at one of the Mana Temples"
    st = make("summoners-quest", players=2).new_state(3)
    first = st.current_seat()
    assert st.order[0] == first and set(st.legal_actions()) == {("temple", t) for t in (0, 8, 16, 24)}
    st.apply(("temple", 16))
    assert ("temple", 16) not in st.legal_actions()
    st.apply(("temple", 0))
    assert st.phase == "pre" and st.current_seat() == first and st.pos[first] == 16


@pytest.mark.seed("summoners-quest:22.4b")
def test_each_player_in_turn_order_picks_a_free_temple_that_becomes_its_own():
    # "Each player chooses a starting space at one of the Mana Temples and places their summoner
    # token on there."  Ledger "Choosing temples": in turn order, one summoner per temple.
    st = make("summoners-quest", players=4).new_state(11)
    picks = [24, 0, 16, 8]
    for i, t in enumerate(picks):
        seat = st.order[i]
        assert st.phase == "temple" and st.current_seat() == seat
        assert set(st.legal_actions()) == {("temple", x) for x in (0, 8, 16, 24) if x not in picks[:i]}
        st.apply(("temple", t))
        assert st.pos[seat] == t and st.start[seat] == t
    assert st.phase == "pre" and st.current_seat() == st.order[0]
    # that temple is the player's own: only walking over it gives the +2 mana
    seat = st.order[0]
    st.pos[seat] = 20
    rolled(st, 2, 3)  # 20 -> 25: over the temple at 24, which is this seat's own
    st.apply(("move", "P", 25, -1))
    assert st.mana[seat] + st.used[seat] == 8
    other = st.order[1]
    st.start_turn(other)
    st.pos[other] = 20
    st.mana[other] = st.used[other] = 0
    rolled(st, 2, 3)  # over the temple at 24, not this seat's (its own is 0)
    st.apply(("move", "P", 25, -1))
    assert st.mana[other] + st.used[other] == 0


# -- Movement ------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:22.6", "summoners-quest:40.2")
def test_move_full_roll_clockwise_and_mandatory():
    # "The player moves the full roll of the die when moving only the Summoner token"
    st = fresh()
    rolled(st, 3, 4)
    assert set(st.legal_actions()) == {("move", "P", 7, -1)}
    st.apply(("move", "P", 7, -1))
    assert st.pos[0] == 7 and st.phase == "post"


def test_no_move_possible_gives_stay():
    st = fresh()
    st.status[0] = [["stunned", 1]]
    rolled(st, 3, 4)
    assert st.legal_actions() == (("stay",),)


@pytest.mark.seed("summoners-quest:40.6")
def test_summons_may_move_backwards():
    # "Summons have the option of moving backwards instead."
    st = fresh()
    s = put(st, 0, "einherjar", 10)
    rolled(st, 2, 3)
    acts = set(st.legal_actions())
    assert ("move", s, 15, -1) in acts and ("move", s, 5, -2) in acts
    assert not any(a[1] == "P" and a[3] == -2 for a in acts)


@pytest.mark.seed("summoners-quest:40.4")
def test_move_both_half_roll_rounded_down():
    # "halving their roll and moving the Summoner token and their summon at the same time.
    # Round down when halving the roll (if an 11 move 5)."
    st = fresh()
    s = put(st, 0, "einherjar", 0)
    rolled(st, 5, 6)
    both = [a for a in st.legal_actions() if a[1] == "B" + s[1:]]
    assert both == [("move", "B" + s[1:], 5, -1)]
    st.apply(both[0])
    assert st.pos[0] == 5 and st.pos_of(s) == 5


def test_movement_notes_and_statuses_change_steps():
    st = fresh()
    fast = put(st, 0, "sleipnir", 10)   # swift: +1
    slow = put(st, 0, "hydra", 20)      # slow: -1
    rolled(st, 2, 2)
    acts = set(st.legal_actions())
    assert ("move", fast, 15, -1) in acts and ("move", slow, 23, -1) in acts
    st.status[0] = [["hasted", 1]]
    st._legal = None
    assert ("move", "P", 6, -1) in st.legal_actions()
    st.status[0] = [["slowed", 1]]
    st._legal = None
    assert ("move", "P", 2, -1) in st.legal_actions()


def test_passing_through_triggers_nothing():
    # Ledger: only the space a piece lands on resolves traps and combat.
    st = fresh()
    st.pos[1] = 3
    st.traps[2] = ["pitfall", 1]
    rolled(st, 2, 3)
    st.apply(("move", "P", 5, -1))
    assert st.life == [10, 10] and 2 in st.traps and st.combat is None


@pytest.mark.seed("summoners-quest:34.2")
def test_portal_jump_optional_then_resolves_arrival():
    # "If you land on a portal you have the option of using it or not, but must move in a
    # clockwise direction to the next portal if you decide to use it."
    st = fresh()
    st.pos[0] = 1
    st.traps[12] = ["pitfall", 1]
    rolled(st, 1, 2)
    st.apply(("move", "P", 4, -1))
    assert st.stack[-1].kind == "portal" and set(st.legal_actions()) == {("jump",), ("stay_portal",)}
    script(st, 1)  # the trap at the arrival portal: negation roll fails
    st.apply(("jump",))
    assert st.pos[0] == 12 and st.life[0] == 8 and not st.stack and st.phase == "post"


@pytest.mark.seed("summoners-quest:36.3", "summoners-quest:36.4", "summoners-quest:56.2")
def test_gate_opens_for_ten_mana_while_moving():
    # "If a player wishes to open a gate, they must spend 10 mana points to open a single gate.
    # Once a gate is open, any and all players or summons may cross through the gate freely."
    st = fresh()
    st.pos[0] = 2
    st.mana[0] = 9
    rolled(st, 1, 2)
    assert set(st.legal_actions()) == {("move", "P", 5, -1)}
    st.mana[0] = 10
    st._legal = None
    assert ("move", "P", GATE0, 0) in st.legal_actions()
    st.apply(("move", "P", GATE0, 0))
    assert st.gates == 1 and st.mana[0] == 0 and st.used[0] == 10 and st.pos[0] == GATE0
    # the gate stays open for everyone, free
    st.active, st.phase = 1, "pre"
    st.pos[1] = 3
    rolled(st, 1, 1)
    assert ("move", "P", GATE0, 0) in st.legal_actions()
    st.apply(("move", "P", GATE0, 0))
    assert st.mana[1] == 6


@pytest.mark.seed("summoners-quest:36.3")
def test_gates_at_will_variant():
    # Alternative reading: a gate is opened from anywhere as an at-will action, not while moving.
    st = fresh(variant="gates-at-will")
    st.pos[0] = 2
    st.mana[0] = 10
    rolled(st, 1, 2)
    assert set(st.legal_actions()) == {("move", "P", 5, -1)}
    st = fresh(variant="gates-at-will")
    st.pos[0] = 20
    st.mana[0] = 10
    st._legal = None
    assert {("open", k) for k in range(4)} <= set(st.legal_actions())
    st.apply(("open", 0))
    assert st.gates == 1 and st.mana[0] == 0 and not any(a[0] == "open" for a in st.legal_actions())
    st.pos[0] = 2
    rolled(st, 1, 2)
    assert ("move", "P", GATE0, 0) in st.legal_actions()


@pytest.mark.seed("summoners-quest:38.5")
def test_chamber_ends_movement_and_holds_its_occupant():
    # "Once on the space, the player, or any residing summon, may not leave that space unless evicted."
    st = fresh()
    st.gates = 1
    st.pos[0] = 4
    rolled(st, 6, 6)
    assert ("move", "P", CH, 0) in st.legal_actions()
    st.apply(("move", "P", CH, 0))
    assert st.pos[0] == CH
    st.phase = "pre"
    rolled(st, 3, 3)
    assert st.legal_actions() == (("stay",),)


@pytest.mark.seed("summoners-quest:38.3")
def test_halls_are_one_way_unless_reversed():
    # "This is a one-way path and may not be backtracked unless under the effect of a spell, trap,
    # or ability that reverses movement direction."
    st = fresh()
    st.gates = 1
    s = put(st, 0, "einherjar", GATE0 + 1)
    st.status[0] = [["stunned", 1]]
    rolled(st, 1, 1)
    assert set(st.legal_actions()) == {("move", s, CH, -1)}
    st.summons[int(s[1:])].status, st.summons[int(s[1:])].status_turns = "reversed", 1
    st._legal = None
    assert set(st.legal_actions()) == {("move", s, 4, -2)}


# -- Mana --------------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:56.3")
def test_mana_recovery_at_start_of_turn():
    # "At the beginning of a player's turn they recover two mana stones from the used pile"
    st = fresh()
    st.mana[1], st.used[1] = 1, 5
    st.phase = "post"
    st.apply(("end",))
    assert st.active == 1 and st.mana[1] == 3 and st.used[1] == 3


@pytest.mark.seed("summoners-quest:30.3", "summoners-quest:56.4")
def test_temple_crossing_adds_two_maximum_mana():
    # "When a summoner token crosses over the Mana Temple space that they started from, they gain
    # two additional Mana Stone."  Ledger: landing on it counts; jumps and effects do not.
    st = fresh()
    st.pos[0] = 30
    rolled(st, 1, 2)
    st.apply(("move", "P", 1, -1))
    assert st.mana[0] == 8
    st = fresh()
    st.pos[0] = 29
    rolled(st, 1, 2)
    st.apply(("move", "P", 0, -1))
    assert st.mana[0] == 8
    st = fresh()
    st.pos[0] = 27
    rolled(st, 0, 1)
    st.apply(("move", "P", 28, -1))
    st.apply(("jump",))
    assert st.pos[0] == 4 and st.mana[0] == 6


@pytest.mark.seed("summoners-quest:30.2")
def test_temple_discount():
    # "they are able to use cards from their hands at a minus 1 Mana cost, to a minimum of 1"
    st = fresh()
    cards = st.game.cards
    assert st.card_cost(0, cards["fireball"]) == 2
    assert st.card_cost(0, cards["gust"]) == 1
    st.pos[0] = 8  # ledger: any temple
    assert st.card_cost(0, cards["fireball"]) == 2
    st.pos[0] = 5
    assert st.card_cost(0, cards["fireball"]) == 3


# -- Cards ------------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:32.2", "summoners-quest:66.6")
def test_focus_point_draws_for_the_summoner_only():
    # "When a summoner token lands on the space, they draw a card"
    st = fresh()
    rolled(st, 1, 1)
    st.apply(("move", "P", 2, -1))
    assert len(st.hands[0]) == 1
    st = fresh()
    s = put(st, 0, "einherjar", 10)
    rolled(st, 1, 1)
    st.apply(("move", s, 12, -1))
    st.apply(("stay_portal",))
    rolled(st, 1, 1)
    st.phase = "move"
    st.summons[int(s[1:])].pos = 11
    st.apply(("move", s, 13, -1))
    assert st.hands[0] == []


@pytest.mark.seed("summoners-quest:26.2")
def test_full_hand_discards_before_drawing():
    # "If they have 5 cards and want to draw a card, they must first discard a card"
    st = fresh()
    give(st, 0, "fireball", "gust", "haste", "slow", "insight")
    rolled(st, 1, 1)
    st.apply(("move", "P", 2, -1))
    assert st.stack[-1].kind == "hand_full"
    assert ("keep",) in st.legal_actions()
    st.apply(("discard_draw", "gust"))
    assert len(st.hands[0]) == 5 and "gust" not in st.hands[0] and st.deck.discard_pile[-1] == "gust"


@pytest.mark.seed("summoners-quest:28.4")
def test_discard_pile_reshuffles_only_when_the_deck_is_empty():
    # "The discard pile may not be interacted with until all cards have been drawn."
    st = fresh()
    st.deck.discard_pile = st.deck.draw_pile[:-1]
    st.deck.draw_pile = st.deck.draw_pile[-1:]
    top = st.deck.draw_pile[0]
    st.draw_cards(0, 1)
    assert st.hands[0] == [top] and st.deck.draw_pile == [] and len(st.deck.discard_pile) == 99
    st.draw_cards(0, 1)
    assert len(st.deck.discard_pile) == 0 and len(st.deck.draw_pile) == 98


@pytest.mark.seed("summoners-quest:26.1")
def test_draw_effects_stop_at_the_hand_limit():
    # Ledger: a card that draws never makes you discard; drawing stops at 5.
    st = fresh()
    give(st, 0, "fireball", "gust", "haste", "slow", "insight")
    deck = len(st.deck.draw_pile)
    st.apply(("cast", "insight", "P0"))
    assert len(st.hands[0]) == 5 and len(st.deck.draw_pile) == deck - 1


# -- Summoning ---------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:24.1", "summoners-quest:24.2")
def test_summoning_costs_mana_and_needs_a_free_space():
    # "A player may not cast a summon if there is another player or summon on the same square"
    st = fresh()
    give(st, 0, "einherjar", "oni")
    st.pos[0] = 5
    st._legal = None
    assert ("summon", "einherjar") in st.legal_actions() and ("summon", "oni") in st.legal_actions()
    st.apply(("summon", "einherjar"))
    assert st.mana[0] == 4 and [m.pos for m in st.summons.values()] == [5]
    assert ("summon", "oni") not in st.legal_actions()
    st = fresh()
    give(st, 0, "einherjar")
    st.pos[1] = 0
    st._legal = None
    assert ("summon", "einherjar") not in st.legal_actions()


@pytest.mark.seed("summoners-quest:48.1")
def test_summon_ability_costs_mana_once_per_turn():
    # "In most cases these abilities require mana to cast."
    st = fresh()
    s = put(st, 0, "kitsune", 5)
    st.pos[1] = 7
    st._legal = None
    uid = int(s[1:])
    assert ("ability", uid, "P1") in st.legal_actions()
    st.apply(("ability", uid, "P1"))
    assert st.life[1] == 8 and st.mana[0] == 4
    assert not any(a[0] == "ability" for a in st.legal_actions())
    st.pos[1] = 8
    st.used_abilities = []
    st._legal = None
    assert ("ability", uid, "P1") not in st.legal_actions()  # range 2


# -- Life --------------------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:58.3")
def test_life_never_exceeds_ten():
    # "Life stones can not be gained past 10."
    st = fresh()
    st.life[0] = 9
    give(st, 0, "healing_light")
    st.apply(("cast", "healing_light", "P0"))
    assert st.life[0] == 10


@pytest.mark.seed("summoners-quest:60.1")
def test_summon_damage_counters_destroy_it():
    # "When the number of counters reaches the amount of life of a summon, that summon is destroyed."
    st = fresh()
    s = put(st, 1, "huldra", 5)
    st.damage(s, 2)
    assert st.summons[int(s[1:])].damage == 2
    st.damage(s, 5)
    assert int(s[1:]) not in st.summons and st.deck.discard_pile[-1] == "huldra"


@pytest.mark.seed("summoners-quest:20.2b")
def test_defeated_summoner_loses_summons_and_cards_but_traps_stay():
    # "Each player tries to destroy all other players and their minions": a defeated summoner's
    # minions go with it (ledger "A defeated summoner").
    st = fresh(3)
    s = put(st, 1, "huldra", 5)
    st.deck.draw_pile.remove("talaria")
    st.summons[int(s[1:])].equip = ["talaria"]
    mine = put(st, 2, "oni", 9)
    give(st, 1, "fireball")
    st.equip[1] = ["aegis"]
    st.status[1] = [["slowed", 2]]
    st.traps[7] = ["pitfall", 1]
    st.damage("P1", 11)  # Aegis guards 1
    assert not st.alive[1] and st.pos[1] == -1 and st.life[1] == 0
    assert list(st.summons) == [int(mine[1:])] and st.hands[1] == [] and st.equip[1] == [] and st.status[1] == []
    assert {"huldra", "talaria", "fireball", "aegis"} <= set(st.deck.discard_pile) and 7 in st.traps
    assert st.winner is None
    # the defeated seat no longer takes turns
    st.phase = "post"
    st._legal = None
    st.apply(("end",))
    assert st.active == 2


@pytest.mark.seed("summoners-quest:20.3")
def test_last_summoner_standing_wins():
    st = fresh(2)
    st.damage("P1", 12)
    assert st.is_over() and st.results().winners == (0,) and st.results().reason == "last summoner standing"


def test_component_counts_are_not_limits():
    # "Mana Counters (48 Blue Counters, 6 for each player at start and a pool to add from)":
    # ledger: the counter supply does not cap anyone's mana.
    st = fresh(4)
    for s in range(4):
        st.mana[s] = 12
    st.pos[0] = 30
    rolled(st, 1, 2)
    st.apply(("move", "P", 1, -1))
    assert st.mana[0] == 14
