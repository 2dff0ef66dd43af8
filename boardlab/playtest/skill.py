"""``playtest --skill-check``: do a run's headline verdicts hold for good players?

A playtest's verdict (:func:`boardlab.playtest.verdict.family`) is about the agents that
played it, usually the game's heuristic. The skill check re-tests the same claims (each
seat's or side's share against the fair one, the first player's, and, with ``--variant
base,a,...``, each variant's effect on every seat's or side's win rate) with the search
agent in every seat, on the same game seeds, **sequentially**: it plays blocks of games and
stops at the first look where every claim is decided, or at ``--skill-games``.

Every look uses anytime-valid confidence sequences (:func:`boardlab.stats.confidence_sequence`,
as ``--until-ci`` does), Bonferroni across every sequence of the check, so the run may stop at
any look. Each level's verdict on a claim is one of

* ``favoured`` / ``disadvantaged`` (a variant: ``raises`` / ``lowers``): the interval excludes
  the fair share (no effect) on that side;
* ``even`` (``no effect``): the share lies within :data:`MARGIN` of the fair one (for a
  variant, the share of seeds whose result the variant changes is at most :data:`MARGIN`,
  which bounds the effect);
* nothing yet, while the interval straddles both.

At the base level the verdict is the run's own (a claim made after Holm's correction, or
``even`` when none was made: "no edge beyond chance"). A claim **holds** when the skill
level's verdict is the same, **changes** when it is decided and different, and is
**undecided** otherwise.

The search is re-tested only where it plays better than the heuristic: :data:`STRENGTH`
holds the arena figures per game and player count (docs/benchmarks.md, "Verdict speed";
docs/agents.md). Where the search is not stronger (the four-player Dungeon's Jewel) the check
says so and plays nothing: the heuristic's verdicts already are the search's.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from boardlab.engine.errors import BoardlabError, InvalidOptionError
from boardlab.engine.files import atomic_write
from boardlab.stats import ALPHA, confidence_sequence

from .sections import skill_lines as markdown_lines  # noqa: F401  (the report's section, re-exported)

#: A share within this many points of the fair one counts as "even" (and a variant that changes
#: the result of at most this share of seeds as "no effect").
MARGIN = 0.10

#: Default cap on the skill check's games (each variant plays this many) on the Python rules.
DEFAULT_GAMES = 20

#: The cap where the compiled core plays the check (issue 43): about the games the anytime-valid
#: sequence needs for +-5 points on a share near one half, in about the time 20 Python games take
#: (docs/benchmarks.md, "Compiled core").
DEFAULT_GAMES_CORE = 1400

#: Games between looks (at least; a larger cap looks every cap / LOOKS games).
LOOK_EVERY = 4
LOOKS = 25

#: The search against the heuristic, per (game, players): whether the search is stronger, the spec
#: the check plays, and the evidence (arena win rate with its Wilson 95% interval). Where the arena
#: measured the default ``ismcts`` the check plays ``strong``: the same 200-iteration search without the
#: default's 2-second clock (and with sure stopping, which keeps its choices), so a check's games do
#: not depend on how busy the machine is. Armies was measured at 50 iterations, a fixed budget too.
STRENGTH: dict[tuple[str, int], dict[str, Any]] = {
    ("armies", 2): {"stronger": True, "spec": "ismcts:iterations=50",
                    "evidence": "ismcts:iterations=50 beats the heuristic 59/80 = 0.738 [0.632, 0.821] (docs/agents.md)"},
    ("blackfire", 2): {"stronger": True, "spec": "strong",
                       "evidence": "ismcts beats the heuristic 46/60 = 0.767 [0.646, 0.856] (docs/agents.md)"},
    ("summoners-quest", 2): {"stronger": True, "spec": "strong",
                             "evidence": "ismcts beats the heuristic 58/80 = 0.725 [0.619, 0.811] (docs/agents.md)"},
    ("dungeons-jewel", 2): {"stronger": True, "spec": "strong",
                            "evidence": "ismcts beats the heuristic 0.550 [0.501, 0.598] over 400 games (docs/benchmarks.md)"},
    ("dungeons-jewel", 4): {"stronger": False, "spec": "strong",
                            "evidence": "ismcts against the heuristic, 400 games, seats rotated: head to head 0.478 [0.429, 0.526], "
                                        "per seat 0.230 [0.191, 0.274] against 0.253 [0.212, 0.297] (docs/benchmarks.md, \"Tuned heuristics\")"},
    ("wizards-labyrinth", 3): {"stronger": True, "spec": "strong",
                               "evidence": "ismcts beats the heuristic 74/100 = 0.740 [0.646, 0.816], sides (docs/agents.md)"},
}


def search_strength(game_id: str, players: int) -> dict[str, Any]:
    """The table's entry for ``game_id`` at ``players`` (``stronger`` is None where it was not measured)."""
    entry = STRENGTH.get((game_id, players))
    if entry is None:
        return {"stronger": None, "spec": "strong",
                "evidence": "not measured"}
    return dict(entry)


# --- the claims -------------------------------------------------------------------------------------------


def _points(r: dict[str, Any], seat: int, players: int) -> float:
    """1 for a win, an equal share of a draw (a finished game nobody won), else 0 (as in the verdict)."""
    if seat in r["winners"]:
        return 1.0
    return 1.0 / players if not r["winners"] and not r.get("truncated") else 0.0


def _role_points(r: dict[str, Any], role: str, fair: float) -> float:
    if role in (r.get("winner_roles") or []):
        return 1.0
    return fair if not r["winners"] and not r.get("truncated") else 0.0


def _score(claim: dict[str, Any], r: dict[str, Any], players: int) -> float:
    if claim.get("first_player"):
        return _points(r, r["first_seat"], players)
    if "role" in claim:
        return _role_points(r, claim["role"], claim["fair"])
    return _points(r, claim["seat"], players)


def _base_word(claim: dict[str, Any]) -> str:
    if not claim["claimed"]:
        return "even"
    return "favoured" if claim["rate"] > claim["fair"] else "disadvantaged"


def _skill_word(lo: float, hi: float, fair: float) -> str | None:
    if lo > fair:
        return "favoured"
    if hi < fair:
        return "disadvantaged"
    if lo >= fair - MARGIN and hi <= fair + MARGIN:
        return "even"
    return None


def _status(base: str, skill: str | None) -> str:
    return "undecided" if skill is None else ("holds" if skill == base else "changes")


def balance_items(base_rows: Sequence[dict[str, Any]], players: int, roles: bool) -> list[dict[str, Any]]:
    """The base run's balance claims (:func:`boardlab.playtest.verdict.family`), one item each."""
    from .verdict import family

    items = []
    for c in family(base_rows, players, roles):
        label = c["label"] + (f" ({c['first']})" if c.get("first") else "")
        items.append({"kind": "balance", "label": label, "claim": c, "fair": c["fair"],
                      "base": {"rate": c["rate"], "ci_low": c["lo"], "ci_high": c["hi"], "n": c["n"],
                               "verdict": _base_word(c), "p_holm": c["p_holm"]}})
    return items


def effect_items(base_rows: Sequence[dict[str, Any]], variant_rows: Sequence[tuple[str, Sequence[dict[str, Any]]]],
                 roles: bool) -> list[dict[str, Any]]:
    """Each variant's effect on every seat's (or side's) win rate at the base level, Holm-corrected as one family
    across every measure of every comparison (:func:`boardlab.playtest.compare.compare_many`)."""
    if not variant_rows:
        return []
    from .compare import compare_many

    many = compare_many(("base", base_rows), list(variant_rows))
    items = []
    for label, res in many["comparisons"].items():
        named = [(f"role {role}", role, r) for role, r in res["win_by_role"].items() if not role.startswith("seat ")] if roles else []
        if not named:
            named = [(f"seat {s}", s, r) for s, r in enumerate(res["win_by_seat"])]
        for name, key, r in named:
            word = "no effect" if not r["significant"] else ("raises" if r["difference"] > 0 else "lowers")
            items.append({"kind": "effect", "variant": label, "label": f"{label}: {name} win rate", "key": key,
                          "base": {"difference": r["difference"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                                   "n": res["paired_games"], "verdict": word, "p_holm": r.get("p_holm", r["p_value"])}})
    return items


def _won(r: dict[str, Any], key: Any) -> bool:
    return key in (r.get("winner_roles") or []) if isinstance(key, str) else key in r["winners"]


def assess(items: list[dict[str, Any]], skill: dict[str, list[dict[str, Any]]], players: int, base_variant: str,
           alpha: float = ALPHA) -> bool:
    """Fill each item's ``skill`` level and ``status`` from the skill games so far; True when every item is decided.

    ``skill`` maps a variant label to its skill games (the base under ``base_variant``), all the same length.
    Each balance item uses one confidence sequence, each effect item two (its direction, among the seeds the
    variant changes, and how many it changes); alpha is split across all of them (Bonferroni).
    """
    sequences = sum(1 if it["kind"] == "balance" else 2 for it in items)
    each = alpha / max(1, sequences)
    rows = skill[base_variant]
    n = len(rows)
    for it in items:
        if it["kind"] == "balance":
            k = sum(_score(it["claim"], r, players) for r in rows)
            lo, hi = confidence_sequence(k, n, each) if n else (0.0, 1.0)
            word = _skill_word(lo, hi, it["fair"]) if n else None
            it["skill"] = {"rate": k / n if n else 0.0, "ci_low": lo, "ci_high": hi, "n": n, "verdict": word}
        else:
            other = skill[it["variant"]]
            a_only = sum(1 for a, b in zip(rows, other) if _won(a, it["key"]) and not _won(b, it["key"]))
            b_only = sum(1 for a, b in zip(rows, other) if _won(b, it["key"]) and not _won(a, it["key"]))
            d = a_only + b_only
            dlo, dhi = confidence_sequence(b_only, d, each) if d else (0.0, 1.0)
            qlo, qhi = confidence_sequence(d, n, each) if n else (0.0, 1.0)
            if dlo > 0.5:
                word = "raises"
            elif dhi < 0.5:
                word = "lowers"
            elif n and qhi <= MARGIN:
                word = "no effect"
            else:
                word = None
            it["skill"] = {"difference": (b_only - a_only) / n if n else 0.0, "changed_low": qlo, "changed_high": qhi,
                           "variant_share_low": dlo, "variant_share_high": dhi, "a_only": a_only, "b_only": b_only,
                           "n": n, "verdict": word}
        it["status"] = _status(it["base"]["verdict"], it["skill"]["verdict"])
    return all(it["status"] != "undecided" for it in items)


# --- running it -------------------------------------------------------------------------------------------


def skill_folder(folder: str | Path) -> Path:
    """Where a run's skill games go: a sibling folder ``<run>-skill`` (a resumable run of its own)."""
    folder = Path(folder)
    return folder.with_name(folder.name + "-skill")


def _prefix(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    by = {r["index"]: r for r in rows}
    out = []
    while len(out) in by:
        out.append(by[len(out)])
    return out


def skill_check(
    configs: Sequence[Any],
    folders: Sequence[str | Path],
    *,
    spec: str | None = None,
    games: int | None = None,
    jobs: int | None = None,
    look_every: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Re-test the verdicts of the finished runs ``folders`` (``configs[0]`` the base variant) with the search.

    ``spec`` is the search agent (default: the table's spec for the game and player count, else ``strong``).
    Plays at most ``games`` games per variant (default :data:`DEFAULT_GAMES`, or :data:`DEFAULT_GAMES_CORE`
    where the compiled core plays the search) into ``skill_folder(folder)``, on the runs' own seeds, and writes
    ``skill.json`` into the base run's folder. Returns the check (see :func:`markdown_lines`).
    """
    from boardlab.agents import check_spec
    from boardlab.engine.registry import make

    from .metrics import roles_add_information
    from .run import execute
    from .store import RunDir

    from boardlab.engine.core import choose

    base_cfg = configs[0]
    game = make(base_cfg.game, players=base_cfg.players, variant=base_cfg.variant, options=base_cfg.options)
    strength = search_strength(base_cfg.game, base_cfg.players)
    spec = spec or strength["spec"]
    check_spec(spec, game)
    engine = choose(game, [spec] * base_cfg.players, restricted=bool(getattr(base_cfg, "restrict", None)))
    if games is None:
        games = DEFAULT_GAMES_CORE if engine.engine == "core" else DEFAULT_GAMES
    if games < 1:
        raise InvalidOptionError(f"--skill-games must be at least 1, got {games}")
    if look_every is None:
        look_every = max(LOOK_EVERY, games // LOOKS)
    labels = [Path(f).name for f in folders]
    base_rows = RunDir(folders[0]).read_results()
    roles = roles_add_information(base_rows)
    heuristic_base = all(a == "heuristic" for a in base_cfg.agents)
    items = balance_items(base_rows, base_cfg.players, roles)
    items += effect_items(base_rows, [(label, RunDir(f).read_results()) for label, f in zip(labels[1:], folders[1:])], roles)
    doc: dict[str, Any] = {
        "game": base_cfg.game, "players": base_cfg.players, "base_agents": list(base_cfg.agents), "skill_agent": spec,
        "engine": engine.to_json(),
        "strength": strength, "games_max": games, "margin": MARGIN, "alpha": ALPHA, "items": items,
        "method": "anytime-valid beta-binomial confidence sequences (Howard et al. 2021), Bonferroni across every sequence",
    }
    t0, cpu0 = time.perf_counter(), _cpu()
    if heuristic_base and strength["stronger"] is False:
        doc.update(retested=False, games_played=0, seconds=0.0, cpu_seconds=0.0, decided=False, finished=True,
                   reason=(f"the search is not stronger than the heuristic in {base_cfg.game} at {base_cfg.players} players "
                           f"({strength['evidence']}): the heuristic's verdicts are already those of the strongest player the lab has, so nothing was re-tested"))
        for it in items:
            it["skill"], it["status"] = None, "not re-tested"
        _save(folders[0], doc)
        return doc
    skill_cfgs = [dataclasses.replace(c, agents=tuple([spec] * c.players), games=games) for c in configs]
    skill_dirs = [skill_folder(f) for f in folders]
    for cfg, d in zip(skill_cfgs, skill_dirs):
        _adopt(RunDir(d), cfg)
    look = max(1, look_every)
    while True:
        played = {label: _prefix(RunDir(d).read_parts()) if RunDir(d).exists() else [] for label, d in zip(labels, skill_dirs)}
        n = min(games, *(len(rows) for rows in played.values()))
        played = {label: rows[:n] for label, rows in played.items()}
        decided = assess(items, played, base_cfg.players, labels[0])
        if progress:
            progress(n, games)
        doc.update(retested=True, games_played=n, seconds=time.perf_counter() - t0, cpu_seconds=_cpu() - cpu0, decided=decided,
                   folders=[str(d) for d in skill_dirs], finished=False)
        _save(folders[0], doc)  # after every look, so an interrupted check still shows how far it got
        if decided or n >= games:
            break
        block = min(look, games - n)
        for cfg, d in zip(skill_cfgs, skill_dirs):
            have = len(_prefix(RunDir(d).read_parts())) if RunDir(d).exists() else 0
            if have < n + block:
                execute(cfg, d, jobs=jobs, stop_after=n + block - have, chunk_size=1)  # one game per task: a block spreads over the jobs
    doc["finished"] = True
    _save(folders[0], doc)
    return doc


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool workers of every block)."""
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _adopt(run: Any, cfg: Any) -> None:
    """Let an earlier check's skill folder continue under a new ``--skill-games`` cap; refuse other differences."""
    from boardlab.engine.errors import BoardlabError

    if not run.exists():
        return
    manifest = run.read_manifest()
    old = dict(manifest.get("config") or {})
    new = cfg.to_json()
    if {**old, "games": new["games"]} != new:
        raise BoardlabError(f"{run.path} holds skill games of another check (agent, variant or options differ); "
                            "remove it or choose another --out")
    if old["games"] != new["games"]:
        run.write_manifest({**manifest, "config": new, "complete": False})


def _save(folder: str | Path, doc: dict[str, Any]) -> None:
    import json

    clean = {**doc, "items": [{k: v for k, v in it.items() if k != "claim"} for it in doc["items"]]}
    atomic_write(Path(folder) / "skill.json", json.dumps(clean, indent=2, sort_keys=True), "skill summary",
                 error=BoardlabError)


def public(doc: dict[str, Any]) -> dict[str, Any]:
    """The check as JSON (the claims' internals dropped)."""
    return {**doc, "items": [{k: v for k, v in it.items() if k != "claim"} for it in doc["items"]]}


# --- the report -------------------------------------------------------------------------------------------



def check_skill_agent(config: Any, agent: str) -> None:
    """Refuse a bad ``--skill-check AGENT`` before any game is played (``auto``: the table's search)."""
    from boardlab.agents import check_spec
    from boardlab.engine.registry import make

    game = make(config.game, players=config.players, variant=config.variant, options=config.options)
    check_spec(search_strength(config.game, config.players)["spec"] if agent == "auto" else agent, game)


def run_skill_check(configs: Sequence[Any], folders: Sequence[Path], results: list[dict[str, Any]], agent: str,
                    games: int | None, jobs: int | None, quiet: bool) -> dict[str, Any]:
    """The CLI's ``--skill-check``: run the check and add its section to the base run's summary and report."""
    from boardlab.engine.errors import BoardlabError

    from .report import write_report
    from .store import RunDir

    if not all(r.get("complete") for r in results):
        raise BoardlabError("--skill-check needs finished runs; run the same command again to finish them first")
    progress = None
    if not quiet and sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            print(f"skill check: {done} of at most {total} games per variant", file=sys.stderr, flush=True)
    doc = skill_check(configs, folders, spec=None if agent == "auto" else agent, games=games,
                      jobs=jobs, progress=progress)
    results[0]["skill_check"] = public(doc)
    run = RunDir(folders[0])
    write_report(run.path, run.read_manifest(), results[0], run.read_results())
    return doc
