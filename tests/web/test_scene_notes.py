"""Scene text for issue 44 (items 5 and 6), from the games' scenes, without a browser.

The Armies game-over headline reads as one sentence; an Armies General that can be attacked is
warned about, and setup suggests a skill split; the Dungeon's Jewel keys its board codes;
Blackfire warns of its archer and Death tokens and says its turns end by themselves; the
Labyrinth's "not playable" hint is one short line per card.
"""

from __future__ import annotations

import random

from boardlab.engine import registry


def _play_until(game_id, pred, seed=1, limit=4000, **kw):
    """The first position (game, state) of a seeded random game where ``pred(game, state)`` holds (or
    the last one: the game's end, or ``limit`` actions); ``kw`` goes to ``registry.make``."""
    g = registry.make(game_id, **kw)
    s = g.new_state(seed)
    r = random.Random(seed)
    for _ in range(limit):
        if pred(g, s):
            return g, s
        if s.is_over():
            break
        s.apply(r.choice(s.legal_actions()))
    return g, s


def test_the_armies_game_over_headline_is_the_result_alone():
    g, s = _play_until("armies", lambda g, s: s.is_over(), seed=0)
    assert s.is_over()
    status = g.scene(s.view(0), [])["status"]
    assert status.startswith("Game over: ") and status.count("Game over") == 1, status
    assert " - turn " not in status and "major action" not in status, status


def test_armies_suggests_a_skill_split_the_seat_can_take():
    g = registry.make("armies")
    s = g.new_state(1)
    seat = s.current_seat()
    acts = s.legal_actions()
    sc = g.scene(s.view(seat), acts)
    sug = sc["suggest"]
    assert acts[sug["action"]][0] == "skills"
    assert sug["label"].startswith("General skill: ") and "your deck costs mostly" in sug["why"]
    # the suggestion is the heuristic bot's own choice
    from boardlab.agents import Decision, make_agent
    bot = make_agent("heuristic", g, seat, 0)
    assert bot.act(Decision(s, seat)) == acts[sug["action"]]


def test_armies_warns_when_the_general_can_be_attacked():
    def threatened(g, s):
        seat = s.current_seat()
        return seat is not None and s.view(seat)["state"]["phase"] != "setup" and "alert" in g.scene(s.view(seat), s.legal_actions())
    g, s = _play_until("armies", threatened, seed=2)
    seat = s.current_seat()
    alert = g.scene(s.view(seat), s.legal_actions())["alert"]
    assert alert.startswith("Your General on ") and "can attack it" in alert


def test_the_dungeons_jewel_keys_every_board_code():
    g = registry.make("dungeons-jewel")
    s = g.new_state(1)
    codes = dict(g.scene(s.view(0), s.legal_actions())["codes"])
    for code, name in (("Mo", "Monster"), ("Fl", "Flooded room"), ("Qu", "Quicksand")):
        assert codes[code] == name
    assert "?" in codes


def test_blackfire_warns_of_the_archer_and_death_tokens_and_turns_that_end_by_themselves():
    g, s = _play_until("blackfire", lambda g, s: s.view(0)["state"]["phase"] == "play")
    seat = s.current_seat()
    sc = g.scene(s.view(seat), s.legal_actions())
    assert sc["alert"].startswith("Careful: the ") and "archer" in sc["alert"] and "Death" in sc["alert"]
    assert sc["turn_ends_by_itself"] is True
    other = g.scene(s.view(1 - seat), [])
    assert "alert" not in other  # only the seat about to move is warned


def test_blackfire_setup_prompt_counts_the_tokens():
    g = registry.make("blackfire")
    s = g.new_state(1)
    seat = s.current_seat()
    assert "your token 1 of " in g.scene(s.view(seat), s.legal_actions())["prompt"]


def test_the_labyrinth_not_playable_hint_is_one_short_line_per_card():
    def blocked(g, s):
        return s.current_seat() == 0 and "Not playable now" in g.scene(s.view(0), s.legal_actions()).get("hint", "")
    g, s = _play_until("wizards-labyrinth", blocked, seed=3)
    hint = g.scene(s.view(0), s.legal_actions())["hint"]
    lines = hint.split("\nNot playable now:")[1].strip("\n").split("\n")
    assert lines and all(line.startswith("\u2022 ") and len(line) <= 80 for line in lines), lines


def test_summoners_quest_tells_a_knocked_out_seat_it_is_out():
    def out(g, s):
        return not s.is_over() and not s.view(0)["state"]["players"][0]["alive"]
    for seed in range(1, 40):
        g, s = _play_until("summoners-quest", out, seed=seed)
        if out(g, s):
            break
    else:
        raise AssertionError("seat 1 was never knocked out with the game still on")
    assert g.scene(s.view(0), [])["out"].startswith("Your summoner is defeated: you are out")
    for seat in range(1, g.players):  # only the knocked-out seat is told, and nobody once it is over
        if s.view(seat)["state"]["players"][seat]["alive"]:
            assert "out" not in g.scene(s.view(seat), [])
    g, s = _play_until("summoners-quest", lambda g, s: s.is_over(), seed=1)
    assert all("out" not in g.scene(s.view(k), []) for k in range(g.players))


def test_blackfire_warns_that_an_enemy_kills_by_moving_onto_a_unit():
    def warned(g, s):
        seat = s.current_seat()
        return seat is not None and "alert" in g.scene(s.view(seat), s.legal_actions())
    g, s = _play_until("blackfire", warned, seed=3)
    seat = s.current_seat()
    view = s.view(seat)
    mine = view["state"]["colours"][seat]
    foe = next(u for u in view["state"]["units"] if u["side"] != mine and u["kind"] == "warrior")
    alert = g.scene(view, s.legal_actions())["alert"]
    if foe["cell"] is not None and foe["stance"] != "defensive":
        assert f"the {foe['name']} on " in alert and "kills a unit of yours by moving onto its square" in alert, alert
        assert f"up to {g.opt['warrior_move']} spaces away" in alert
    else:
        assert "by moving onto its square" not in alert
