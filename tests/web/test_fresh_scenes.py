"""Scene and label text from the fresh person's trial (docs/web.md, "A fresh person's verdicts",
issue 44), checked without a browser: the Labyrinth's setup hints and its game-over note, move
labels that name what the move does, and the other one-line explanations.
"""

from __future__ import annotations

import random
from functools import partial

from boardlab.engine import registry

from .test_scene_notes import _play_until

_walk = partial(_play_until, limit=5000)


def _kind(s):
    seat = s.current_seat()
    return seat is not None and (s.view(seat)["state"]["prompt"] or {}).get("kind")


def test_the_labyrinth_explains_the_wizards_hidden_setup_choices_in_plain_words():
    hints = {}
    for kind in ("tower", "entrance", "key"):
        g, s = _walk("wizards-labyrinth", lambda g, s, k=kind: _kind(s) == k, players=4)
        assert _kind(s) == kind
        hints[kind] = g.scene(s.view(0), s.legal_actions()).get("hint", "")
    assert "centre tiles" in hints["tower"] and "start on A1" in hints["tower"]
    assert "only from the tile in front of its entrance" in hints["entrance"]
    assert "only you see where" in hints["key"] and "Tip:" in hints["key"]


def test_the_labyrinth_says_how_the_game_ended_and_that_an_empty_tower_falls_without_a_fight():
    for seed in range(1, 40):
        g, s = _walk("wizards-labyrinth", lambda g, s: s.is_over(), seed=seed, players=3)
        if s.is_over() and 0 not in s.view(1)["results"]["winners"]:
            break
    else:  # pragma: no cover
        raise AssertionError("no heroes' win in 40 random games")
    note = g.scene(s.view(1), [])["over_note"]
    assert note.startswith("The heroes won") and "without a fight" in note
    g, s = _walk("wizards-labyrinth", lambda g, s: s.is_over() and 0 in s.view(0)["results"]["winners"], seed=2, players=3)
    if s.is_over() and 0 in s.view(0)["results"]["winners"]:
        assert g.scene(s.view(0), [])["over_note"].startswith("The wizard won")
    # a game still going has none
    g, s = _walk("wizards-labyrinth", lambda g, s: True, players=3)
    assert "over_note" not in g.scene(s.view(0), s.legal_actions())


def _first_attack_move(game_id, seeds=range(40)):
    """A position where some legal move lands on enemy pieces (labelled with "(attacks")."""
    g = registry.make(game_id)
    for seed in seeds:
        s = g.new_state(seed)
        r = random.Random(seed)
        for _ in range(3000):
            if s.is_over():
                break
            acts = s.legal_actions()
            if any(a[0] == "move" and "(attacks" in s.describe(a) for a in acts):
                return g, s, acts
            s.apply(r.choice(acts))
    raise AssertionError(f"{game_id}: no move onto an enemy in {len(seeds)} random games")


def test_summoners_quest_labels_a_move_that_starts_a_fight():
    g, s, acts = _first_attack_move("summoners-quest")
    seat = s.current_seat()
    sc = g.scene(s.view(seat), acts)
    by_action = {t["action"]: t["label"] for t in sc["targets"]}
    for i, a in enumerate(acts):
        if a[0] != "move":
            continue
        enemies = [p for p in s.pieces_at(a[2]) if s.owner(p) != s.active]
        label = s.describe(a)
        assert ("(attacks " in label) == bool(enemies), label
        if enemies:
            assert s.label(enemies[0]) in label
            assert "(attacks " in by_action[i], by_action[i]  # the board's target says it too


def test_blackfire_labels_a_move_onto_an_enemy_as_a_kill():
    g, s, acts = _first_attack_move("blackfire")
    seat = s.current_seat()
    sc = g.scene(s.view(seat), acts)
    by_action = {t["action"]: t["label"] for t in sc["targets"]}
    hits = [i for i, a in enumerate(acts) if a[0] == "move" and "(attacks" in s.describe(a)]
    for i in hits:
        label = s.describe(acts[i])
        assert "kills the " in label or "absorbed" in label or "blocks it" in label, label
        assert by_action[i].lower().endswith(label[label.index("(attacks"):].lower()), (by_action[i], label)
    # a move onto an empty square says nothing more
    plain = next(a for a in acts if a[0] == "move" and "(attacks" not in s.describe(a))
    assert s.describe(plain).count("(") == 0


def test_blackfires_quick_start_says_any_unit_moving_onto_an_enemy_kills_it():
    from boardlab.engine.registry import game_class
    from boardlab.web import rules

    md = rules.quick_start(game_class("blackfire"))
    assert "Any unit moving onto an enemy kills it" in md


# -- Armies ---------------------------------------------------------------------------------------
def _armies_until(pred, seeds=range(20)):
    g = registry.make("armies")
    for seed in seeds:
        s = g.new_state(seed)
        r = random.Random(seed)
        for _ in range(800):
            if s.is_over():
                break
            if pred(g, s):
                return g, s
            s.apply(r.choice(s.legal_actions()))
    raise AssertionError("no such Armies position in the seeds")


def test_armies_warns_before_a_move_opens_a_line_to_the_general():
    def exposing(g, s):
        return any("opens a line to your General" in s.describe(a) for a in s.legal_actions())
    g, s = _armies_until(exposing)
    seat = s.current_seat()
    acts = s.legal_actions()
    risky = [a for a in acts if "opens a line to your General" in s.describe(a)]
    label = s.describe(risky[0])
    assert label.endswith("could attack it)"), label
    # the piece it names is an enemy piece standing on the square it names
    import re
    from boardlab.games.armies import board as B
    kind, sq = re.search(r"the (?:white|black) (\w+) on ([a-h][1-8]) could attack it", label).groups()
    enemy = s.at(B.FILES.index(sq[0]) + 8 * (int(sq[1]) - 1))
    assert enemy is not None and enemy.seat != seat and B.PIECE_NAMES[enemy.kind] == kind
    sc = g.scene(s.view(seat), acts)
    by_action = {t["action"]: t["label"] for t in sc["targets"]}
    i = acts.index(risky[0])
    assert "opens a line to your General" in by_action[i], by_action[i]
    # the alert above the board, when the General is not attacked already
    if not sc["alert"].startswith("Your General on "):
        assert sc["alert"].startswith("Careful: ") and "your General" in sc["alert"]
    # a move that exposes nothing says nothing more
    safe = [a for a in acts if a[0] == "move" and "(" not in s.describe(a)]
    assert safe, "every move exposes the General?"


def test_armies_says_why_there_is_nothing_to_rest():
    def no_rest(g, s):
        st = s.view(s.current_seat())["state"] if s.current_seat() is not None else None
        return st is not None and st["phase"] == "opp2" and st["prompt"] is None \
            and not any(a[0] == "rest" for a in s.legal_actions())
    g, s = _armies_until(no_rest)
    seat = s.current_seat()
    prompt = g.scene(s.view(seat), s.legal_actions())["prompt"]
    assert prompt.startswith("Play cards, then end the turn: nothing to rest:"), prompt
    assert "restores spent skill" in prompt


def test_armies_names_a_card_played_through_a_piece_without_reading_as_a_move():
    g, s = _armies_until(lambda g, s: any(a[0] == "play" for a in s.legal_actions()))
    labels = [s.describe(a) for a in s.legal_actions() if a[0] == "play"]
    assert labels and not any(" through " in x or " onto " in x for x in labels), labels
    assert all(" with your " in x and ", aimed at " in x or " on your " in x for x in labels), labels


def test_armies_folds_the_battle_line_to_its_first_sentence():
    g = registry.make("armies")
    s = g.new_state(1)
    fold = g.scene(s.view(0), s.legal_actions())["log_fold"]
    import re
    line = ("Attack 1 against defense 0. Attack: offense pawn 0 = 0: 0 dice, none rolled, 0 hits + 1 for attacking"
            " in person = 1. Defense: defense pawn 0 = 0: 0 dice, none rolled, 0 hits = 0.")
    m = re.match(fold[0], line)
    assert m and m.group(0) == "Attack 1 against defense 0."


# -- the Dungeon's Jewel ------------------------------------------------------------------------------
def test_the_dungeons_jewel_says_which_side_a_wall_token_blocks():
    g, s = _walk("dungeons-jewel", lambda g, s: bool(s.view(0)["state"]["walls"]), seed=1)
    v = s.view(0)
    (c, side), = v["state"]["walls"][:1]
    token = next(i for i in g.scene(v, [])["boards"][0]["items"] if i["id"] == f"t{c}")
    arrow = {"N": "\u2191", "E": "\u2192", "S": "\u2193", "W": "\u2190"}[side]
    name = {"N": "north", "E": "east", "S": "south", "W": "west"}[side]
    assert token["text"] == "Wa" and token["badge"] == arrow
    assert f"It blocks the {name} side of this room (the way to " in token["title"]
    codes = dict(g.scene(v, [])["codes"])
    assert "points at the side of its room it blocks" in codes["Wa"]


# -- Blackfire ----------------------------------------------------------------------------------------
def test_blackfire_says_when_the_stance_switch_comes_and_goes():
    def hint(g, s):
        seat = s.current_seat()
        return g.scene(s.view(seat), s.legal_actions()).get("hint", "") if seat is not None else ""
    g, s = _walk("blackfire", lambda g, s: "may switch your warrior's stance now" in hint(g, s))
    assert any(a[0] == "stance" for a in s.legal_actions())
    g, s = _walk("blackfire", lambda g, s: "stance can change only before any unit moves" in hint(g, s))
    assert not any(a[0] == "stance" for a in s.legal_actions())
    assert "comes back at the start of your next turn" in hint(g, s)


def test_blackfire_explains_a_loss_with_a_sorcerer_waiting_to_respawn():
    # the rules (docs/rules/blackfire.md, ledger 25): a side with no unit on the board loses, as a dead
    # sorcerer respawns only while a friendly piece lives; the page says so instead of "no unit left" alone
    g, s = _walk("blackfire", lambda g, s: s.is_over(), seed=1)
    assert "has no unit left" in s.view(0)["results"]["reason"]
    note = g.scene(s.view(0), [])["over_note"]
    assert "no unit left on the board" in note and "waiting to respawn" in note and "could never return" in note


def test_summoners_quest_says_where_the_compass_names_sit_on_the_drawing():
    g = registry.make("summoners-quest")
    s = g.new_state(1)
    sc = g.scene(s.view(s.current_seat()), s.legal_actions())
    titles = {n["label"]: n["title"] for n in sc["boards"][0]["nodes"]}
    assert titles["NT"].endswith(", the top-left corner") and titles["ST"].endswith(", the bottom-right corner")
    assert titles["NP"].endswith(", the middle of the top edge") and titles["W2"].endswith(", on the left edge")
    codes = dict(sc["codes"])
    assert "North temple top-left corner" in codes["NT ET ST WT"] and "NP top edge" in codes["NP EP SP WP"]
    # the drawing agrees: the North temple is drawn top left, the North portal at the top's middle
    from boardlab.games.summoners_quest.scene import node_xy
    assert node_xy(g.board, 0) == (0.05, 0.05) and node_xy(g.board, 4)[1] == 0.05 and abs(node_xy(g.board, 4)[0] - 0.5) < 1e-9


def test_the_labyrinths_card_labels_say_what_the_card_does():
    g, s = _walk("wizards-labyrinth", lambda g, s: any(a[0] == "play" for a in s.legal_actions()), players=3)
    acts = s.legal_actions()
    a = next(a for a in acts if a[0] == "play")
    label = s.describe(a)
    card = g.content.wizard_cards[a[1]]
    assert label.startswith(f"play {a[1]} (") and " mana: " in label, label
    import re
    assert not re.search(r"\d", label), "numbers in words: a bare number is a choice's number in the terminal"
    sc = g.scene(s.view(0), acts)
    assert any(t["label"] == label for t in sc["targets"] if t["action"] == acts.index(a))
    assert card.type in ("monster", "trap", "spell")


def test_the_labyrinths_loot_choice_names_the_card_to_the_hero_who_sees_it_and_to_nobody_else():
    """The second fresh trial (issue 44): the loot choice read "card 1 to Hero 1", "card 2 to Hero 1".
    The heroes see the offer (their view's prompt holds the cards), so the hero's scene names each card
    and what it does; the wizard, who may not learn a loot card in a hand, gets no such label, and the
    label every seat shares (``describe``, shown in the history to any seat) stays blind."""
    g, s = _walk("wizards-labyrinth", lambda g, s: _kind(s) == "loot", players=3)
    assert _kind(s) == "loot"
    hero, acts = s.current_seat(), s.legal_actions()
    offer = s.view(hero)["state"]["prompt"]["cards"]
    labels = g.scene(s.view(hero), acts)["action_labels"]
    for i, a in enumerate(acts):
        assert a[0] == "take"
        assert labels[str(i)].startswith(f"{offer[a[1]]}") and labels[str(i)].endswith(")"), labels[str(i)]
        assert f"to Hero {a[2]} (" in labels[str(i)], labels[str(i)]
        assert s.describe(a) == f"card {a[1] + 1} to Hero {a[2]}"  # the shared label names no card
    targets = {t["action"]: t["label"] for t in g.scene(s.view(hero), acts)["targets"]}
    assert all(targets[i].startswith(offer[a[1]]) for i, a in enumerate(acts))
    # the wizard's view holds no offer: even given the actions, its scene names nothing
    wiz = g.scene(s.view(0), acts)
    assert "cards" not in s.view(0)["state"]["prompt"] and "action_labels" not in wiz
    assert not any(name in t["label"] for t in wiz["targets"] for name in offer)


def test_summoners_quest_names_the_portals_of_a_jump():
    """The second fresh trial (issue 44): "Jump to the next portal?" did not say which portal; the prompt
    names where the piece stands and where the jump lands (clockwise), as the jump then does."""
    def at_portal(g, s):
        seat = s.current_seat()
        return seat is not None and (s.view(seat)["state"].get("prompt_data") or {}).get("kind") == "portal"

    g, s = _walk("summoners-quest", at_portal, players=2)
    assert at_portal(g, s)
    seat, names = s.current_seat(), g.board.names
    pr = s.view(seat)["state"]["prompt_data"]
    ask = g.scene(s.view(seat), s.legal_actions())["prompt"]
    ports = g.board.portals
    there = ports[(ports.index(pr["space"]) + 1) % len(ports)]
    assert ask == f"Jump from {names[pr['space']]} to the next portal, {names[there]}?", ask
    s.apply(("jump",))
    assert any(f"to {names[there]}." in e["text"] for e in s.events(seat)[-3:]), s.events(seat)[-3:]


def test_summoners_quest_warns_the_trap_owner_of_a_move_onto_their_own_trap():
    """The second fresh trial (issue 44): a move onto the player's own face-down trap gave no warning. The
    owner's action list says so (the scene's ``action_labels``); another seat's view, and the shared
    label (``describe``, which the history shows to every seat), do not."""
    from boardlab.games.summoners_quest.scene import OWN_TRAP

    def onto_own_trap(g, s):
        seat = s.current_seat()
        if seat is None:
            return False
        mine = {t["space"] for t in s.view(seat)["state"]["traps"] if t["owner"] == seat}
        return any(a[0] == "move" and a[2] in mine for a in s.legal_actions())

    for seed in range(1, 40):
        g, s = _walk("summoners-quest", onto_own_trap, seed=seed, players=2)
        if onto_own_trap(g, s):
            break
    else:
        raise AssertionError("no move onto one's own trap")
    seat, acts = s.current_seat(), s.legal_actions()
    labels = g.scene(s.view(seat), acts)["action_labels"]
    mine = {t["space"] for t in s.view(seat)["state"]["traps"] if t["owner"] == seat}
    onto = [i for i, a in enumerate(acts) if a[0] == "move" and a[2] in mine]
    assert onto and set(labels) == {str(i) for i in onto}, (labels, onto)
    for i in onto:  # the shared label, then the warning
        assert labels[str(i)] == s.describe(acts[i]) + OWN_TRAP, (labels[str(i)], s.describe(acts[i]))
        assert "trap" not in s.describe(acts[i])
    other = g.scene(s.view(1 - seat), acts)
    assert "action_labels" not in other and not any("own trap" in t["label"] for t in other["targets"])


def test_the_labyrinths_key_explains_room_values_and_hero_marks():
    """The second fresh trial (issue 44): room labels like "+2/-1" and a hero's "(stuck)" were not in the
    Key. The scene's ``key_notes`` explain the ones on the board now, to every seat."""
    from boardlab.games.wizards_labyrinth.scene import HERO_NOTES, ROOM_NOTE

    def stuck(g, s):
        st = s.view(0)["state"]
        return any(h["alive"] and h["stuck"] for h in st["heroes"]) and any(
            t["state"] == "up" and t.get("kind") == "room" for t in st["tiles"])

    g, s = _walk("wizards-labyrinth", stuck, seed=2, players=3)
    assert stuck(g, s)
    for seat in (0, 1, 2):
        notes = g.scene(s.view(seat), ())["key_notes"]
        assert ROOM_NOTE in notes and HERO_NOTES["stuck"] in notes, notes
        assert "+2/-1" in ROOM_NOTE and "(stuck)" in HERO_NOTES["stuck"]
    first = g.new_state(1)  # nothing flipped, nobody marked: no notes
    assert "key_notes" not in g.scene(first.view(0), ())


def test_summoners_quests_key_explains_the_statuses_on_the_board():
    """The second fresh trial (issue 44): "hasted" was not explained on the screen; the Key (the scene's
    ``key_notes``) says what each status on the board does."""
    from boardlab.games.summoners_quest.content import STATUSES

    def with_status(g, s):
        st = s.view(0)["state"]
        return any(p["statuses"] for p in st["players"]) or any(m["status"] for m in st["summons"])

    for seed in range(1, 20):
        g, s = _walk("summoners-quest", with_status, seed=seed, players=2)
        if with_status(g, s):
            break
    st = s.view(0)["state"]
    on = {n for p in st["players"] for n, _ in p["statuses"]} | {m["status"] for m in st["summons"] if m["status"]}
    notes = g.scene(s.view(0), ())["key_notes"]
    assert notes == [f"{n}: {STATUSES[n]}." for n in STATUSES if n in on], (notes, on)
    assert "key_notes" not in g.scene(g.new_state(1).view(0), ())
