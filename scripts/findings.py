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
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boardlab.engine import registry  # noqa: E402
from boardlab.engine.registry import make  # noqa: E402
from boardlab.playtest import execute, plan_run  # noqa: E402
from boardlab.playtest.metrics import rate  # noqa: E402
from boardlab.playtest.store import RunDir  # noqa: E402

#: game id -> list of (label, plan_run keyword arguments).  An optional
#: ``"share"`` plays that fraction of ``--games`` (for slow agents such as ISMCTS).
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

START, END = "<!-- figures:start -->", "<!-- figures:end -->"


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
        lines.append("| seat | win rate | 95% CI |")
        lines.append("| --- | --- | --- |")
        for s, r in enumerate(res["win_by_seat"]):
            lines.append(f"| {s} | {pct(r['rate'])} | {pct(r['ci_low'])} - {pct(r['ci_high'])} |")
        roles = res["win_by_role"]
        if res.get("roles_add_information"):
            lines += ["", "| side or role | win rate | 95% CI |", "| --- | --- | --- |"]
            for role, r in roles.items():
                lines.append(f"| {role} | {pct(r['rate'])} | {pct(r['ci_low'])} - {pct(r['ci_high'])} |")
        comp = res["completion"]
        fm = res.get("first_mover")
        lines += [""]
        if fm:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, help="comma-separated game ids")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
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
            cfg = plan_run(game_id, games=games, seed=args.seed, **kwargs)
            key = hashlib.sha1((json.dumps(cfg.to_json(), sort_keys=True) + code).encode()).hexdigest()[:10]
            out = ROOT / "runs" / "findings" / f"{game_id}-{i}-{key}"
            try:
                res = execute(cfg, out, jobs=args.jobs)
                res["first_mover"] = first_mover(cfg, RunDir(out).read_results())
            except Exception as exc:  # one broken experiment must not hide the others
                res = {"error": f"{type(exc).__name__}: {exc}"}
                print(f"{game_id}: {label}: FAILED {res['error']}", file=sys.stderr)
            else:
                print(f"{game_id}: {label}: done", file=sys.stderr)
            results.append((label, cfg, res))
        path = ROOT / "docs" / "findings" / f"{game_id}.md"
        block = figures_block(game_id, results, args.games, args.seed)
        text = path.read_text() if path.exists() else f"# Findings: {game_id}\n\n{START}\n{END}\n"
        if START in text and END in text:
            text = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda m: block, text, flags=re.S)
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
        path.write_text(text)
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
