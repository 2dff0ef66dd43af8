#!/usr/bin/env python3
"""The prose figures of docs/findings/armies.md (the ones outside the generated block).

    python scripts/findings_armies_detail.py [--runs runs/findings]

Reads the Armies findings runs that ``scripts/findings.py --only armies --games
300 --seed 2026`` writes (``runs/findings/armies-*``) and prints, from the
lab's per-game rows (usage counters, end reason, length, winners): attacks and
failed attacks per game, General battles lost, how games end, the
Unfavorable War "could not pay" endings and who wins them, the restricted-play
McNemar comparison with the first 150 standard seeds (``boardlab.stats``),
length quantiles, deck-outs and after-dice windows. Nothing is replayed: every
figure comes from the rows. Each run is identified by its manifest's config
(variant and restriction), not by its folder name.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import json  # noqa: E402

from boardlab.playtest import power  # noqa: E402
from boardlab.playtest.store import RunDir  # noqa: E402
from boardlab.stats import mcnemar_exact, wilson  # noqa: E402

GAME = "armies"
UW_END = "Unfavorable War: the General could not pay"
BATTLE_END = "the General lost a battle it could not pay for"
CAP_END = "turn cap reached"


def load_runs(root: Path) -> dict[str, list[dict]]:
    """Label -> rows ordered by game index; labels: standard, roll-first, chess, witch-vs-cavalry, restricted."""
    runs: dict[str, list[dict]] = {}
    for path in sorted(root.glob(f"{GAME}-[0-9]*")):
        run = RunDir(path)
        if not run.exists():
            continue
        cfg = run.read_manifest()["config"]
        if cfg["game"] != GAME:
            continue
        label = "restricted" if cfg.get("restrict") else cfg["variant"]
        rows = sorted(run.read_results(), key=lambda r: r["index"])
        runs[label] = rows
        SECONDS[label] = (float(run.read_manifest().get("seconds_last_session") or 0.0),
                          int(run.read_manifest().get("jobs") or 1))
    return runs


SECONDS: dict[str, tuple[float, int]] = {}  # label -> (wall seconds of the last session, worker processes)


def metrics(row: dict) -> dict[str, list[int]]:
    m = row["metrics"]
    return json.loads(m) if isinstance(m, str) else dict(m)


def total(row: dict, key: str) -> int:
    return sum(metrics(row).get(key, [0, 0]))


def pct(k: float, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"


def quartiles(values: list[int]) -> tuple[float, float, float]:
    q1, med, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, med, q3


def report_attacks(label: str, rows: list[dict]) -> None:
    n = len(rows)
    att = [total(r, "rule:attack") + total(r, "rule:ranged_attack") for r in rows]
    won = [total(r, "rule:battle_won") for r in rows]
    failed = [total(r, "rule:attack_failed") for r in rows]
    a, w, f = sum(att), sum(won), sum(failed)
    ranged = sum(total(r, "rule:ranged_attack") for r in rows)
    print(f"  attacks a game (melee {(a - ranged) / n:.1f} + ranged {ranged / n:.1f}) {a / n:.1f}; won {w / n:.1f};"
          f" failed {f / n:.1f} ({100 * f / a:.1f}% of attacks)"
          f"; attacks neither won nor failed (cancelled) {(a - w - f) / n:.2f}")


def report_generals(label: str, rows: list[dict]) -> None:
    n = len(rows)
    lost = [total(r, "rule:general_battle_lost") for r in rows]
    some = sum(1 for x in lost if x > 0)
    print(f"  General battles lost a game {sum(lost) / n:.2f}; games with at least one {some}/{n} = {pct(some, n)}")


def report_endings(label: str, rows: list[dict]) -> None:
    n = len(rows)
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["reason"]] = counts.get(r["reason"], 0) + 1
    for reason, k in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  ends '{reason}': {k}/{n} = {pct(k, n)}")


def report_length(label: str, rows: list[dict]) -> None:
    turns = [int(r["turns"]) for r in rows]
    q1, med, q3 = quartiles(turns)
    print(f"  length mean {statistics.fmean(turns):.1f} turns, median {med:g}, quartiles {q1:g}-{q3:g}")


def report_deck_out(label: str, rows: list[dict]) -> None:
    n = len(rows)
    k = sum(1 for r in rows if total(r, "rule:deck_out") > 0)
    print(f"  games where a seat draws from an empty deck: {k}/{n} = {pct(k, n)}")


def report_windows(label: str, rows: list[dict]) -> None:
    n = len(rows)
    for kind in ("after_dice", "attack", "card"):
        k = sum(total(r, f"rule:window_{kind}") for r in rows)
        print(f"  {kind.replace('_', '-')} windows opened a game: {k / n:.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default=str(ROOT / "runs" / "findings"), help="folder holding the armies-* runs")
    args = ap.parse_args(argv)
    runs = load_runs(Path(args.runs))
    need = ["standard", "roll-first", "chess", "witch-vs-cavalry", "restricted"]
    missing = [x for x in need if x not in runs]
    if missing:
        print(f"error: missing findings runs for {', '.join(missing)} under {args.runs};"
              " run scripts/findings.py --only armies --games 300 --seed 2026 first", file=sys.stderr)
        return 2
    for label in need:
        rows = runs[label]
        print(f"== {label} ({len(rows)} games)")
        report_attacks(label, rows)
        report_generals(label, rows)
        report_endings(label, rows)
        report_length(label, rows)
        if label != "chess":
            report_deck_out(label, rows)
            report_windows(label, rows)

    std, res = runs["standard"], runs["restricted"]
    print("== Unfavorable War (standard)")
    uw = [r for r in std if r["reason"] == UW_END]
    white = sum(1 for r in uw if 0 in list(r["winners"]))
    print(f"  games ending '{UW_END}': {len(uw)}/{len(std)}; white (seat 0) wins {white} of them")
    print("== restricted play (white never plays Unfavorable War) vs the first standard games, same seeds")
    m = len(res)
    by_index = {r["index"]: r for r in std}
    pairs = [(by_index[r["index"]], r) for r in res]
    assert all(a["seed"] == b["seed"] for a, b in pairs), "restricted and standard games do not share seeds"
    free = sum(1 for a, _ in pairs if 0 in list(a["winners"]))
    never = sum(1 for _, b in pairs if 0 in list(b["winners"]))
    free_only = sum(1 for a, b in pairs if 0 in list(a["winners"]) and 0 not in list(b["winners"]))
    never_only = sum(1 for a, b in pairs if 0 not in list(a["winners"]) and 0 in list(b["winners"]))
    print(f"  white wins: may play it {free}/{m} = {pct(free, m)}; never plays it {never}/{m} = {pct(never, m)}")
    print(f"  discordant: only when free {free_only}, only when restricted {never_only};"
          f" McNemar exact p = {mcnemar_exact(free_only, never_only):.2f}")
    psi = (free_only + never_only) / m  # what this comparison could have seen (80% power, alone at 5%)
    seen = power.detectable_paired(m, psi, 0.05)
    print(f"  could see a difference of {100 * seen:.1f} points or more (80% power, 5% level);"
          f" {power.games_to_see_paired(0.05, psi, 0.05):,} paired games would see 5 points")
    battle = sum(1 for r in res if r["reason"] == BATTLE_END)
    print(f"  restricted games ending '{BATTLE_END}': {battle}/{m}")
    print("== precision: half-width of the 95% Wilson interval of a 50% win rate")
    for n in (300, 150):
        lo, hi = wilson(n / 2, n)
        print(f"  {n} games: +/-{100 * (hi - lo) / 2:.1f} points")
    wall, jobs = SECONDS["standard"]
    if wall:
        print(f"== cost: standard run {wall:.1f} s wall on {jobs} workers for {len(std)} games ="
              f" {wall * jobs / len(std):.2f} CPU seconds a game (upper bound; the manifest's last session)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
