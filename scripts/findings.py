#!/usr/bin/env python3
"""Regenerate the figures in docs/findings/<game>.md from fresh playtest runs.

    python scripts/findings.py                 # every game, default sizes
    python scripts/findings.py --only blackfire --games 400 --jobs 2

Each game's experiments (variants, player counts, agents) are listed in
EXPERIMENTS. The script runs them with the playtest lab (runs/findings/...),
then rewrites the block between ``<!-- figures:start -->`` and
``<!-- figures:end -->`` in the game's findings file; the hand-written analysis
around the block is kept.

Run folders are named ``<game>-<i>-<hash>``. The hash covers the experiment's
configuration and the code it depends on (the game package, the engine, the
agents and the simulator), so a finished run is reused only while that code
is unchanged. An experiment that crashes is reported in the block as failed,
and the game's other experiments still run.

Every experiment's balance claims (its seats or sides, and the first player)
are one Holm family (:func:`boardlab.playtest.verdict.family`), and every
claim not made states the smallest edge the run could have seen at 80% power
and how many games would see 2 points (:mod:`boardlab.playtest.power`). An
experiment may fix its own game count with ``"games"`` (the Dungeon's Jewel's
6,000-game run, large enough to see its small first-player edge).

    python scripts/findings.py --only blackfire --rule-changes --games 300

plays the one-rule-at-a-time table (``RULE_CHANGES``): every effect is paired
by seed, and every test of the table (each change's win rates and length) is
one Holm family whose intervals are taken at the level of the step that
decided them; an effect not shown states the smallest effect the table could
see at 80% power and the games a smaller one needs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boardlab.engine import registry  # noqa: E402
from boardlab.engine.registry import make  # noqa: E402
from boardlab.playtest import execute, plan_run  # noqa: E402
from boardlab.playtest import power  # noqa: E402
from boardlab.playtest.metrics import rate  # noqa: E402
from boardlab.playtest.store import RunDir  # noqa: E402
from boardlab.playtest.verdict import family  # noqa: E402
from boardlab.stats import ALPHA  # noqa: E402

#: game id -> list of (label, plan_run keyword arguments).  An optional
#: ``"share"`` plays that fraction of ``--games`` (for slow agents such as ISMCTS);
#: an optional ``"games"`` plays that many games whatever ``--games`` says.
EXPERIMENTS: dict[str, list[tuple[str, dict]]] = {
    "dungeons-jewel": [
        ("rulebook, 4 heuristic players", {"variant": "rulebook", "players": 4, "agents": ["heuristic"]}),
        ("concept numbers, 4 heuristic players", {"variant": "concept", "players": 4, "agents": ["heuristic"]}),
        ("revised (revision log), 4 heuristic players", {"variant": "revised", "players": 4, "agents": ["heuristic"]}),
        ("rulebook, 3 heuristic players", {"variant": "rulebook", "players": 3, "agents": ["heuristic"]}),
        ("rulebook, 2 heuristic players", {"variant": "rulebook", "players": 2, "agents": ["heuristic"]}),
        ("rulebook, aggressive persona in seat 0, 3 heuristic players",
         {"variant": "rulebook", "players": 4, "agents": ["persona:aggressive", "heuristic", "heuristic", "heuristic"]}),
        ("rulebook, explorer persona in seat 0, 3 heuristic players",
         {"variant": "rulebook", "players": 4, "agents": ["persona:explorer", "heuristic", "heuristic", "heuristic"]}),
        ("rulebook, ISMCTS (50 iterations, heuristic playouts) in seat 0, 3 heuristic players",
         {"variant": "rulebook", "players": 4, "agents": ["ismcts:iterations=50:rollout=heuristic", "heuristic", "heuristic", "heuristic"], "share": 1 / 3}),
        ("rulebook, seat 0 rushes the dragon (heuristic strength 1), 3 heuristic players",
         {"variant": "rulebook", "players": 4, "agents": ["heuristic:strength=1", "heuristic", "heuristic", "heuristic"]}),
        ("rulebook, seat 0 gears up longer (heuristic strength 5), 3 heuristic players",
         {"variant": "rulebook", "players": 4, "agents": ["heuristic:strength=5", "heuristic", "heuristic", "heuristic"]}),
        # The post-mortem's players all "set off for the centre around the same time": every
        # seat races for the dragon at once (strength 1), so the first to move is the first there.
        ("rulebook, all four seats race to the dragon at once (heuristic strength 1)",
         {"variant": "rulebook", "players": 4, "agents": ["heuristic:strength=1"]}),
        # 300 games see only a first-player edge of about 7 points; 6,000 see about 1.6 (issue 33). Its first
        # 300 games are the first experiment's (game i's seed depends only on --seed and i).
        ("rulebook, 4 heuristic players, 6,000 games (large enough to see a small first-player edge)",
         {"variant": "rulebook", "players": 4, "agents": ["heuristic"], "games": 6000}),
    ],
    "blackfire": [
        ("final rules, heuristic vs heuristic", {"variant": "final", "agents": ["heuristic"]}),
        ("prototype rules, heuristic vs heuristic", {"variant": "prototype", "agents": ["heuristic"]}),
        ("final rules, hunter style (chess-like offensive) in seat 0 vs heuristic",
         {"variant": "final", "agents": ["heuristic:persona=hunter", "heuristic"]}),
        ("final rules, collector style (goes for tokens) in seat 0 vs heuristic",
         {"variant": "final", "agents": ["heuristic:persona=collector", "heuristic"]}),
        ("final rules, ISMCTS (50 iterations, heuristic playouts) in seat 0 vs heuristic",
         {"variant": "final", "agents": ["ismcts:iterations=50:rollout=heuristic", "heuristic"], "share": 0.2}),
    ],
    "wizards-labyrinth": [
        ("final, 3 players (wizard + 2 heroes)", {"variant": "final", "players": 3, "agents": ["heuristic"]}),
        ("final, 4 players (wizard + 3 heroes)", {"variant": "final", "players": 4, "agents": ["heuristic"]}),
        ("final, 5 players (wizard + 4 heroes)", {"variant": "final", "players": 5, "agents": ["heuristic"]}),
        ("beta, 4 players", {"variant": "beta", "players": 4, "agents": ["heuristic"]}),
        ("beta with the 26 October trap damage, 4 players", {"variant": "beta-playtest", "players": 4, "agents": ["heuristic"]}),
        ("alpha, 4 players", {"variant": "alpha", "players": 4, "agents": ["heuristic"]}),
        ("final with alpha's +1 mana every wizard turn, 3 players",
         {"variant": "final", "players": 3, "agents": ["heuristic"], "options": {"mana_per_turn": 1}}),
        ("final with 2 damage per trap (the 26 October account), 3 players",
         {"variant": "final", "players": 3, "agents": ["heuristic"], "options": {"trap_damage_per_trap": True}}),
    ],
    "armies": [
        ("standard (white first, Gnar Vanguard vs Torani Archers), heuristic vs heuristic", {"variant": "standard", "agents": ["heuristic"]}),
        ("roll for the first player, heuristic vs heuristic", {"variant": "roll-first", "agents": ["heuristic"]}),
        ("no decks (chess with binary-dice combat), heuristic vs heuristic", {"variant": "chess", "agents": ["heuristic"], "share": 0.5}),
        ("Witch and Woodsman (white) vs Gnar Vanguard, heuristic vs heuristic", {"variant": "witch-vs-cavalry", "agents": ["heuristic"], "share": 0.5}),
        ("standard, white never plays Unfavorable War (restricted play)",
         {"variant": "standard", "agents": ["heuristic"], "restrict": {0: "card:Unfavorable War"}, "share": 0.5}),
    ],
    "summoners-quest": [
        ("standard, 4 heuristic players", {"variant": "standard", "players": 4, "agents": ["heuristic"]}),
        ("standard, 3 heuristic players", {"variant": "standard", "players": 3, "agents": ["heuristic"]}),
        ("standard, 2 heuristic players", {"variant": "standard", "players": 2, "agents": ["heuristic"]}),
        ("empty hands (no starting cards), 4 heuristic players", {"variant": "empty-hands", "players": 4, "agents": ["heuristic"]}),
        ("gates opened at will, 4 heuristic players", {"variant": "gates-at-will", "players": 4, "agents": ["heuristic"]}),
        ("defender wins ties, 4 heuristic players", {"variant": "defender-ties", "players": 4, "agents": ["heuristic"]}),
        ("standard, king-of-the-hill persona in seat 0, 3 heuristic players",
         {"variant": "standard", "players": 4, "agents": ["persona:king-of-the-hill", "heuristic", "heuristic", "heuristic"]}),
        ("standard, warlord persona in seat 0, 3 heuristic players",
         {"variant": "standard", "players": 4, "agents": ["persona:warlord", "heuristic", "heuristic", "heuristic"]}),
    ],
}

#: One-rule-at-a-time experiments (issue 19): every rule change the seed's playtest notes, revision log or
#: weekly updates describe, flipped ALONE from the final rules (``base``), on paired seeds. ``expect`` is what
#: the designers' words predict for the OLD rule against the final one: (metric, sign), where metric is
#: ``"role:NAME"`` (that side's win rate) or ``"turns"``; None when they give no effect the bots can measure.
RULE_CHANGES: dict[str, dict] = {
    "blackfire": {
        "base": {"variant": "final", "agents": ["heuristic"]},
        "roles": ["green"],  # green always moves first
        "changes": [
            ("Sorcerer moves 1 square (the original), not 2", {"sorcerer_move": 1},
             "'the movement of the Sorcerers, which was originally one square, would probably need to be changed. "
             "This was confirmed' (playtest notes): one square was too slow", ("turns", +1)),
            ("Prototype token set (teleport, speed, slow, death only)", {"token_set": "prototype"},
             "the original tokens 'had to be almost completely overhauled and expanded in order to function as it was designed'", None),
            ("Teleport only teleports (no d6 table)", {"teleport_table": False},
             "'The teleport was expanded upon to include 6 different effects'", None),
            ("Killing the opposing sorcerer wins", {"sorcerer_kill_wins": True},
             "'We also had to remove the victory condition of killing your opponent' (no effect stated)", None),
            ("No respawn (a killed sorcerer stays dead)", {"respawn": False},
             "'giving the Sorcerers a 3 turn respawn time'", None),
            ("No force push on respawn", {"push_radius": 0},
             "'giving them the force push upon respawning to prevent camping' (the heuristic bots never camp)", None),
            ("No force push on respawn, seat 0 camps (persona `camper`) against the heuristic", {"push_radius": 0},
             "'to prevent camping': without the push, camping the respawn square should pay",
             ("seat:0", +1), {"agents": ["heuristic:persona=camper", "heuristic"]}),
            ("Archers defensive only (no offensive shot)", {"archer_offense": False},
             "'While initially designed to be solely defensive, a question was raised about when he moves within two spaces "
             "of another unit ... This was rectified by giving him some offensive capabilities' (no effect on balance or length stated)",
             None),
            ("No archer contest (no d6 when two archers meet)", {"archer_contest": False},
             "'and expanded to when another archer was placed within range of him via magic or movement. This was rectified "
             "... by causing a dice roll when two archers meet, giving advantage to the defender' (no effect stated)", None),
        ],
    },
    "wizards-labyrinth": {
        "base": {"variant": "final", "players": 4, "agents": ["heuristic"]},
        "roles": ["wizard"],
        "changes": [
            ("Beta's deck (without the 26 October cards: Switcheroo, Whirlwind ...)", {"deck": "early"},
             "'the heroes were too powerful when they stuck together, so to fix this we started to add spells for the wizard "
             "that separated the group'", ("role:wizard", -1)),
            ("Beta's deck, heroes keeping together (`heuristic:group=1`)", {"deck": "early"},
             "the same, with heroes that stick together as the designers' players did (the default heroes spread out)",
             ("role:wizard", -1), {"agents": ["heuristic", "heuristic:group=1", "heuristic:group=1", "heuristic:group=1"]}),
            ("+1 mana every wizard turn (alpha)", {"mana_per_turn": 1},
             "the mana wheel 'made the wizard gain to much mana to fast'", ("role:wizard", +1)),
            ("Flip tiles on entering, no loot phase (beta)", {"loot_phase": False},
             "Marcus: flip the monsters first, then the tiles, so 'a player will fight more on a tile'", None),
            ("A failed trap save costs 2 per trap (the beta playtest account)", {"trap_damage_per_trap": True},
             "classmates: 'the traps were too powerful'", ("role:wizard", +1)),
            ("Trap saves 10+ whatever the number of traps (beta)", {"trap_save_1": 10, "trap_save_2": 10, "trap_save_3": 10},
             "'the more traps there are in a room the harder the dice roll becomes' (to weaken traps)", ("role:wizard", +1)),
            ("3 keys open the tower (beta)", {"keys_needed": 3}, "beta to final; the notes give no reason", None),
            ("Keep every loot card drawn for a win (beta)", {"win_loot_keep_all": True},
             "'we need to try and make the wizard even stronger' (final keeps 1)", ("role:wizard", -1)),
            ("1 loot card for a win in a cleared room (beta)", {"win_loot_repeat_draw": 1}, "beta to final; no reason given", None),
            ("The hero chooses a stuck hero's retreat (beta)", {"stuck_retreat": "hero"}, "beta to final; no reason given", None),
            ("Check of the bot, not a rule: the heuristic wizard never plays Switcheroo (restricted play)",
             {"restrict": {0: ["card:Switcheroo"]}},
             "the designers added Switcheroo to split grouped heroes, so a wizard who uses it well should lose without it "
             "(before issue 19 the heuristic wizard won MORE without it)", ("role:wizard", -1)),
        ],
    },
    "dungeons-jewel": {
        "base": {"variant": "revised", "players": 4, "agents": ["heuristic"]},
        "roles": [],
        "changes": [
            ("Dragon needs more than 10 (the rulebook), not 9", {"dragon_target": 11},
             "revision log: lowered to 9 'as players were discouraged from attacking until late into the game, and made the game too long'",
             ("turns", +1)),
            ("No item taken from a defeated player (the rulebook)", {"fight_steal": False},
             "revision log: 'Items ran out quickly, and certain players may never get items that added to their attack power'", None),
        ],
        "not_available": [
            ("A bigger board with descriptions on the tokens", "revision log: 'Decided to make game board bigger and add "
             "descriptions onto the dungeon tokens' so players need fewer reminders: a physical change, not a rule (the "
             "revised rules keep 7x7)"),
        ],
    },
    "armies": {
        # The seed is one write-up ("now at least somewhat happy with it") with no revision notes or post-mortem:
        # it describes no changed rule. The rows are the two choices its own text leaves to the players.
        "base": {"variant": "standard", "agents": ["heuristic"]},
        "roles": ["white"],
        "changes": [
            ("Roll for the first player (the seed's other choice), not white first", {"first": "roll"},
             "'roll to see who goes first (or white goes first; you pick)': both are offered, no effect claimed", None),
            ("At most one Training card per turn (the seed's M:tG 'Land' analogy)", {"trainings_per_turn": 1},
             "'Training: A one-time effect that boosts a piece's maximum skill in a specific domain. (Land)': "
             "the seed compares Training to lands but states no per-turn limit and claims no effect", None),
        ],
        "not_available": [
            ("Any revised rule (deck rules, resting, combat ...)", "the seed has no revision notes, playtest notes or "
             "post-mortem ('This will help me improve the rules!'): it describes no rule it changed, so there is nothing else to flip"),
        ],
    },
    "summoners-quest": {
        "base": {"variant": "standard", "players": 4, "agents": ["heuristic"]},
        "roles": [],  # four symmetric summoners: only the length is compared
        "changes": [
            ("Hold the Chamber of Victory 10 turns, not 3 (a weaker king-of-the-hill ending: the nearest option to "
             "the combat-only game it replaced)", {"hold_turns": 10},
             "king of the hill 'gets the game focuses on one point, forces combat and gets the game to a point of "
             "finishing rather quickly': a weaker hill should make games longer", ("turns", +1)),
            ("Mana gates cost 30, not 10 (the option's maximum: the centre nearly closed, a second proxy for the "
             "combat-only game)", {"gate_cost": 30},
             "the same: the gates lead to the hill that 'gets the game to a point of finishing rather quickly'; "
             "a dearer gate should make games longer", ("turns", +1)),
            ("Not a designer change: combat ties go to the defender (the ledger's alternative; the seed says only "
             "'the one with the higher roll wins')", {"ties": "defender"},
             "the design history: 'There are certain aspects of the game I'd still like to develop further, such as "
             "the combat'; no tie rule and no effect claimed", None),
            ("Not a designer change: gates opened at will from anywhere (the ledger's alternative)", {"gate_opening": "at-will"},
             "'they must spend 10 mana points to open a single gate'; how a gate is opened is not said, no effect claimed", None),
            ("Not a designer change: no starting cards (the seed deals none)", {"starting_hand": 0},
             "the seed's setup deals no cards; 3 starting cards is the project's reading; no effect claimed", None),
        ],
        "not_available": [
            ("Win by destroying 4 bosses (the first version)", "'At first we had the game require the destruction of 4 "
             "bosses ... we would have to complicate the combat rules': no option (no bosses in the game)"),
            ("Mana unlocks the temples, which then lead to a win (the second version)", "'We still couldn't quite get it "
             "to work, because it negated the other aspect of the game: combat and summoning': no option"),
            ("Combat only: last summoner standing is the only win (no Chamber of Victory)", "'we ran into the issue of "
             "players dropping from the game, and having to wait until the end': no option turns the Chamber off "
             "(the two proxy rows above come nearest); the waiting of players knocked out is not in this table"),
            ("Mana gates not connected to the temples (the first incarnation)", "'When we finally decided to add the "
             "Mana Gates, we eventually connected them to the Mana Temples': a board change, no option"),
        ],
    },
}

START, END = "<!-- figures:start -->", "<!-- figures:end -->"
RC_START, RC_END = "<!-- rule-changes:start -->", "<!-- rule-changes:end -->"


def code_key(game_id: str) -> str:
    """A hash of the code and data a run depends on, so a changed game is replayed, never reused."""
    package = Path(sys.modules[registry.game_class(game_id).__module__].__file__).parent
    lab = ROOT / "boardlab"
    files = [f for f in sorted(package.rglob("*")) if f.is_file() and f.suffix in (".py", ".json", ".txt", ".deck", ".csv")]
    files += sorted((lab / "engine").glob("*.py"))
    files += [lab / "agents" / f"{m}.py" for m in ("base", "mcts", "persona", "simple")] + [lab / "playtest" / "simulate.py"]
    h = hashlib.sha1()
    for f in files:
        if f.exists():
            h.update(str(f.relative_to(ROOT)).encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def first_mover(cfg, rows: list[dict]) -> dict:
    """Win rate of the seat that takes the first turn (seat 0 is not always first: several seeds roll for it).

    The first turn's seat is found by replaying each game's setup from its seed
    (setup choices, if any, take the first legal action; they do not decide
    who starts in any seed game).
    """
    game = make(cfg.game, players=cfg.players, variant=cfg.variant, options=cfg.options)
    game.record_events = False
    wins = 0
    for r in rows:
        state = game.new_state(r["seed"])
        while state.turn < 1 and state.current_seat() is not None:
            state.apply(state.legal_actions()[0])
        wins += state.current_seat() in r["winners"]
    return {**rate(wins, len(rows)), "fair": 1.0 / cfg.players}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


#: round win-rate effects (in shares) and length effects (shares of the mean length) a "games would see" clause states:
#: the largest one smaller than what the run could see.
SHARE_STEPS = (0.10, 0.05, 0.02, 0.01, 0.005)
LENGTH_STEPS = (0.20, 0.10, 0.05, 0.02, 0.01)


def would_see(detectable: float, games_for, unit: str = "points", scale: float = 100.0, steps=SHARE_STEPS) -> str:
    """'; N games would see S points' for the largest round step S below ``detectable`` (``games_for(S)``)."""
    step = power.smaller_step(detectable, steps)
    if step is None:
        return ""
    amount = scale * step
    return f"; {games_for(step):,} games would see {amount:g} {unit[:-1] if amount == 1 and unit.endswith('s') else unit}"


def family_line(claims: list[dict], noun: str) -> str:
    """One bullet for an experiment's balance claims (one Holm family): what it claims and what it could not see."""
    m = claims[0]["family"]
    parts = []
    for c in claims:
        if c["claimed"]:
            side = "favoured" if c["rate"] > c["fair"] else "disadvantaged"
            who = c["label"][0].lower() + c["label"][1:] + (f", who {c['first']}," if c.get("first") else "")
            parts.append(f"{who} wins {pct(c['rate'])} [{pct(c['lo'])}, {pct(c['hi'])}] against a fair {pct(c['fair'])}: "
                         f"**{side}** (p = {c['p_holm']:.2g} after Holm)")
    quiet = [c for c in claims if not c["claimed"] and not c.get("first_player")]
    if quiet:
        widest = max(c["detectable"] for c in quiet)
        c0 = max(quiet, key=lambda c: c["detectable"])
        firsts = [c for c in quiet if c.get("first")]
        note = f" ({firsts[0]['label'][0].lower() + firsts[0]['label'][1:]} {firsts[0]['first']})" if firsts else ""
        other = "no other" if len(quiet) < len([c for c in claims if not c.get("first_player")]) else "no"
        parts.append(f"{other} {noun} wins more or less than a fair {pct(c0['fair'])} beyond chance{note}: "
                     f"not shown, the run could see an edge of {100 * widest:.1f} points or more"
                     + would_see(widest, lambda e: power.games_to_see_share(e, c0["fair"], c0["alpha"])))
    for c in claims:
        if c.get("first_player") and not c["claimed"]:
            parts.append(f"the first player wins {pct(c['rate'])} [{pct(c['lo'])}, {pct(c['hi'])}] against a fair {pct(c['fair'])}: "
                         f"no first-player edge larger than {100 * c['detectable']:.1f} points can be seen in {c['n']:,} games"
                         + would_see(c["detectable"], lambda e: power.games_to_see_share(e, c["fair"], c["alpha"])))
    return (f"- balance ({m} claims, one Holm family; intervals at each claim's Holm level, 80% power): "
            + "; ".join(parts))


def figures_block(game_id: str, results: list[tuple[str, dict, dict]], games: int, seed: int) -> str:
    lines = [START, "", f"_Generated by `python scripts/findings.py --only {game_id} --games {games} --seed {seed}`._", ""]
    for label, cfg, res in results:
        lines.append(f"### {label}")
        lines.append("")
        if "error" in res:
            lines += [f"**This experiment failed** ({cfg.games} games, agents {', '.join(cfg.agents)}, variant `{cfg.variant}`, {cfg.players} players): `{res['error']}`", ""]
            continue
        lines.append(f"{res['games']} games, agents {', '.join(cfg.agents)}, variant `{cfg.variant}`, {cfg.players} players.")
        lines.append("")
        lines.append("| seat | win rate | 95% CI (uncorrected) |")
        lines.append("| --- | --- | --- |")
        for s, r in enumerate(res["win_by_seat"]):
            lines.append(f"| {s} | {pct(r['rate'])} | {pct(r['ci_low'])} - {pct(r['ci_high'])} |")
        roles = res["win_by_role"]
        if res.get("roles_add_information"):
            lines += ["", "| side or role | win rate | 95% CI (uncorrected) |", "| --- | --- | --- |"]
            for role, r in roles.items():
                lines.append(f"| {role} | {pct(r['rate'])} | {pct(r['ci_low'])} - {pct(r['ci_high'])} |")
        comp = res["completion"]
        fm = res.get("first_mover")
        lines += [""]
        if res.get("family"):
            lines.append(family_line(res["family"], "side" if any("role" in c for c in res["family"]) else "seat"))
        elif fm:
            lines.append(f"- first to act wins {pct(fm['rate'])} ({pct(fm['ci_low'])} - {pct(fm['ci_high'])}; fair share {pct(fm['fair'])})")
        lines += [
            f"- balance {res['balance']:.3f}; {res['first_player_advantage'].get('measures', 'seat 0')} minus fair share {100 * res['first_player_advantage']['advantage']:+.1f} points",
            f"- truncated {comp['truncated']} ({pct(comp['truncated_rate'])}); no winner {comp['no_winner']}",
            f"- length {res['turns']['mean']:.1f} turns (median {res['turns']['median']:.0f}, quartiles {res['turns']['q1']:.0f}-{res['turns']['q3']:.0f}); {res['decisions']['mean']:.0f} decisions",
            f"- lead changes per game {res['lead_changes']['mean']:.2f}; mean branching {res['branching']['mean']:.1f}",
        ]
        usage = [u for u in res["usage"] if u["delta"] is not None and u["seat_games_used"] >= 20]
        if usage:
            lines += ["", "| key | uses | win when used | win when not | delta |", "| --- | --- | --- | --- | --- |"]
            for u in sorted(usage, key=lambda u: -abs(u["delta"]))[:12]:
                lines.append(f"| `{u['key']}` | {u['occurrences']} | {pct(u['win_used'])} | {pct(u['win_unused'])} | {100 * u['delta']:+.1f} |")
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def rule_change_rows(game_id: str, games: int, seed: int, jobs: int | None) -> tuple[dict, list[dict]]:
    """Run the base and every single flip on paired seeds; return the table rows (effects with intervals, Holm).

    Every test of the table (each change's claimed win rates and its length) is one family: Holm's correction
    runs across all of them (:func:`boardlab.playtest.compare.correct`), each interval is the paired bootstrap's
    at the level of the Holm step that decided it, and an effect is significant only when its test rejects and
    its interval excludes zero. Each test also carries what it could have seen (:func:`detectable`).
    """
    from boardlab.playtest.compare import compare_rows, correct

    spec = RULE_CHANGES[game_id]
    code = code_key(game_id)

    def run(options: dict, label: str, over: dict | None = None) -> list[dict]:
        base = {**spec["base"], **(over or {})}
        base_opts = dict(base.pop("options", {}))
        options = dict(options)
        restrict = options.pop("restrict", None)  # a flip may be restricted play instead of a rule
        cfg = plan_run(game_id, games=games, seed=seed, options={**base_opts, **options}, restrict=restrict, **base)
        key = hashlib.sha1((json.dumps(cfg.to_json(), sort_keys=True) + code).encode()).hexdigest()[:10]
        out = ROOT / "runs" / "findings" / f"{game_id}-rule-{key}"
        execute(cfg, out, jobs=jobs)
        print(f"{game_id}: {label}: done", file=sys.stderr)
        return RunDir(out).read_results()

    bases: dict[str, list[dict]] = {}
    out = []
    for change, flip, said, expect, *extra in spec["changes"]:
        over = extra[0] if extra else {}
        try:
            bkey = json.dumps(over, sort_keys=True)
            if bkey not in bases:
                bases[bkey] = run({}, "final rules" + (f" {over}" if over else ""), over)
            base_rows = bases[bkey]
            rows = run(flip, change, over)
        except Exception as exc:  # e.g. an option this branch does not have
            out.append({"change": change, "flip": flip, "said": said, "expect": expect, "error": f"{type(exc).__name__}: {exc}"})
            continue
        cmp = compare_rows(base_rows, rows, adjust=False)
        who = {f"role:{role}": cmp["win_by_role"][role] for role in spec["roles"] if role in cmp["win_by_role"]}
        if expect and expect[0].startswith("seat:"):
            who = {expect[0]: cmp["win_by_seat"][int(expect[0].split(":")[1])]}
        n = cmp["paired_games"]
        for r in who.values():  # McNemar: the share of games whose result the flip changed
            r["n"], r["psi"] = n, (r["a_only"] + r["b_only"]) / n
        t = cmp["turns"]
        dist = t.get("distribution")
        t["n"], t["se"] = n, (statistics.pstdev(dist) if dist else 0.0)  # the paired bootstrap's standard error
        out.append({"change": change, "flip": flip, "said": said, "expect": expect, "cmp": cmp, "who": who})
    # Holm across every test this table makes (each change x each measure), intervals at each step's level
    tests = [(row, key) for row in out if "cmp" in row for key in [*row["who"], "turns"]]
    measured = [row["who"][key] if key != "turns" else row["cmp"]["turns"] for row, key in tests]
    correct(measured)
    for (row, key), r in zip(tests, measured):
        if key != "turns":
            mcnemar_interval(r)
        r.update(detectable(r, "turns" if key == "turns" else "win"))
        row.setdefault("holm", {})[key] = (r["significant"], r["p_holm"])
    summary = {"base": spec["base"], "games": games, "seed": seed, "tests": len(tests)}
    return summary, out


def mcnemar_interval(r: dict) -> None:
    """Replace a win-rate difference's interval by McNemar's own, at the test's Holm level.

    Given the ``D`` games whose result the change changed, the share won under the old rule has a Clopper-Pearson
    interval, and the difference is ``(2 * share - 1) * D / n``. That interval excludes 0 exactly when McNemar's
    exact test rejects at the same level, so a row's interval and its star can never disagree (a bootstrap
    interval of the difference can exclude 0 while the exact test does not reject).
    """
    from statsmodels.stats.proportion import proportion_confint

    d = r["a_only"] + r["b_only"]
    if d == 0:
        r["ci_low"] = r["ci_high"] = 0.0
    else:
        lo, hi = proportion_confint(r["b_only"], d, alpha=r["alpha"], method="beta")
        r["ci_low"], r["ci_high"] = (2 * lo - 1) * d / r["n"], (2 * hi - 1) * d / r["n"]
    r["significant"] = r["p_holm"] < ALPHA and (r["ci_low"] > 0 or r["ci_high"] < 0)


def pval(p: float) -> str:
    """A Holm-adjusted p-value as printed: a bootstrap p of 0 means below one resample in 2,000."""
    return "< 0.001" if p == 0 else f"= {p:.2g}"


def detectable(r: dict, kind: str) -> dict:
    """What a rule-change test could see at 80% power at its Holm level, and the games a round smaller effect needs.

    A win rate (McNemar): the normal approximation with the observed discordance rate; a length: the paired
    bootstrap's standard error times z(1 - a/2) + z(0.8). See docs/findings/README.md.
    """
    a, n = r["alpha"], r["n"]
    if kind == "win":
        d = power.detectable_paired(n, r["psi"], a)
        if r["psi"] == 0:
            return {"detectable": 0.0, "see": "", "identical": True}
        return {"detectable": d, "see": would_see(d, lambda e: power.games_to_see_paired(e, r["psi"], a))}
    d = power.detectable_mean(r["se"], a)
    mean = r["mean_a"] or 1.0
    step = power.smaller_step(d / mean, LENGTH_STEPS)
    see = "" if step is None else (f"; {power.games_to_see_mean(step * mean, r['se'], n, a):,} games would see "
                                   f"{step * mean:.1f} turns ({100 * step:g}% of the final rules' length)")
    return {"detectable": d, "see": see}


def could_see(r: dict, kind: str) -> str:
    """The clause a cell without a significant effect carries: the smallest effect this table could see."""
    if r.get("identical"):
        return "; no game's result changed"
    if kind == "win":
        return f"; could see ±{100 * r['detectable']:.1f} pts{r['see']}"
    return f"; could see ±{r['detectable']:.1f} turns{r['see']}"


def rule_change_block(game_id: str, summary: dict, rows: list[dict]) -> str:
    def pts(r):
        return f"{100 * r['difference']:+.1f} pts [{100 * r['ci_low']:+.1f}, {100 * r['ci_high']:+.1f}]"

    spec = RULE_CHANGES[game_id]
    base = summary["base"]
    lines = [RC_START, "",
             f"_Generated by `python scripts/findings.py --only {game_id} --rule-changes --games {summary['games']} --seed {summary['seed']}`: "
             f"each row flips ONE rule from the final rules (variant `{base['variant']}`, {base.get('players', 'default')} players, "
             f"agents {', '.join(base['agents'])}) on the same {summary['games']} seeds. Win-rate effects: paired difference, "
             f"McNemar's exact test, and its exact interval (Clopper-Pearson on the games the change changed); length: mean paired "
             f"difference, its p-value and percentile interval from the same paired bootstrap. All {summary['tests']} tests in the "
             f"table are one family: p-values are Holm-adjusted across them, each interval is taken at the level of the Holm step "
             f"that decided it (wider than 95%), and * = significant (the test rejects, so the interval excludes 0). \"could see\" is the smallest effect the test would have detected "
             f"with 80% power at that level, followed by the paired games a round smaller effect would need "
             f"(normal approximations, see README.md)._", ""]
    lines.append("| change (old rule, alone) | win rate, old rule minus final | length (turns), final to old | what the designers wrote | agrees? |")
    lines.append("| --- | --- | --- | --- | --- |")
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['change']} | failed: `{row['error'][:80]}` | failed | {row['said']} | not run |")
            continue
        cells = []
        for key, r in row["who"].items():
            rej, p = row["holm"][key]
            name = key.split(":", 1)[1] if key.startswith("role:") else f"seat {key.split(':')[1]}"
            cells.append(f"{name}: {pts(r)}, p {pval(p)}{' *' if rej else could_see(r, 'win')}")
        t = row["cmp"]["turns"]
        rej, p = row["holm"]["turns"]
        length = (f"{t['mean_a']:.1f} to {t['mean_b']:.1f}: {t['difference']:+.1f} [{t['ci_low']:+.1f}, {t['ci_high']:+.1f}], "
                  f"p {pval(p)}{' *' if rej else could_see(t, 'turns')}")
        expect = row["expect"]
        if expect is None:
            verdict = "no measurable claim"
        else:
            metric, sign = expect
            key = metric if metric != "turns" else "turns"
            r = row["who"].get(key) if key != "turns" else t
            rej, _ = row["holm"][key]
            if rej and r["difference"] * sign > 0:
                verdict = "**agrees**"
            elif rej:
                verdict = "**disagrees**"
            else:
                verdict = "not shown (no significant effect" + could_see(r, "win" if key != "turns" else "turns") + ")"
        lines.append(f"| {row['change']} | {'; '.join(cells) or '-'} | {length} | {row['said']} | {verdict} |")
    for change, why in spec.get("not_available", []):
        lines.append(f"| {change} | not run | not run | {why} | not run{' on this branch' if 'branch' in why else ''} |")
    lines += ["", RC_END]
    return "\n".join(lines)


def write_block(path: Path, start: str, end: str, block: str,
                fresh: str = "# Findings\n", heading: str = "## One rule at a time\n\n") -> None:
    """Replace the text between ``start`` and ``end`` in ``path`` by ``block``.

    A missing file starts as ``fresh``; a file without the markers gets
    ``heading`` and the block appended.
    """
    text = path.read_text() if path.exists() else fresh
    if start in text and end in text:
        text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda m: block, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n" + heading + block + "\n"
    path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, help="comma-separated game ids")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--rule-changes", action="store_true", help="run the one-rule-at-a-time experiments (RULE_CHANGES) instead")
    args = parser.parse_args()
    if args.rule_changes:
        for game_id in (args.only.split(",") if args.only else list(RULE_CHANGES)):
            summary, rows = rule_change_rows(game_id, args.games, args.seed, args.jobs)
            path = ROOT / "docs" / "findings" / f"{game_id}.md"
            write_block(path, RC_START, RC_END, rule_change_block(game_id, summary, rows))
            print(f"wrote {path}", file=sys.stderr)
        return
    wanted = args.only.split(",") if args.only else list(EXPERIMENTS)
    for game_id in wanted:
        if game_id not in registry.game_ids():
            print(f"skipping {game_id}: not registered", file=sys.stderr)
            continue
        results = []
        code = code_key(game_id)
        for i, (label, spec) in enumerate(EXPERIMENTS[game_id]):
            kwargs = dict(spec)
            games = max(1, round(args.games * kwargs.pop("share", 1.0)))
            games = kwargs.pop("games", games)
            cfg = plan_run(game_id, games=games, seed=args.seed, **kwargs)
            key = hashlib.sha1((json.dumps(cfg.to_json(), sort_keys=True) + code).encode()).hexdigest()[:10]
            out = ROOT / "runs" / "findings" / f"{game_id}-{i}-{key}"
            try:
                res = execute(cfg, out, jobs=args.jobs)
                rows = RunDir(out).read_results()
                res["first_mover"] = first_mover(cfg, rows)
                if cfg.players > 1:
                    res["family"] = family(rows, cfg.players, roles=bool(res.get("roles_add_information")))
            except Exception as exc:  # one broken experiment must not hide the others
                res = {"error": f"{type(exc).__name__}: {exc}"}
                print(f"{game_id}: {label}: FAILED {res['error']}", file=sys.stderr)
            else:
                print(f"{game_id}: {label}: done", file=sys.stderr)
            results.append((label, cfg, res))
        path = ROOT / "docs" / "findings" / f"{game_id}.md"
        block = figures_block(game_id, results, args.games, args.seed)
        write_block(path, START, END, block, fresh=f"# Findings: {game_id}\n\n{START}\n{END}\n", heading="")
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
