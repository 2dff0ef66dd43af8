"""A study's answers as a findings page: ``boardlab study studies/GAME.toml --findings docs/findings/GAME.md``.

A findings page (docs/findings/) keeps its hand-written prose, and the part between ``<!-- study:begin -->`` and
``<!-- study:end -->`` is written from one study's results (:func:`write`): the questions' verdicts in the shape of
the page's "the seed says" table, a table of each question's test (run, games, Holm-corrected p), and each run's
own figures (seats and sides, the balance family with what the run could not see, length, the usage counters).
Every figure between the markers comes from the study's run folders; the text is a pure function of the study's
answers and its runs' games, so the same study with the same seed writes the same bytes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Sequence

from boardlab.engine.errors import BoardlabError, InvalidOptionError
from boardlab.engine.files import atomic_write
from boardlab.stats import level_text

from . import power

BEGIN, END = "<!-- study:begin -->", "<!-- study:end -->"

#: round win-rate effects (shares) a "games would see" clause states: the largest one smaller than what the run could see.
SHARE_STEPS = (0.10, 0.05, 0.02, 0.01, 0.005)
#: usage rows shown per run: the counters with the largest win-rate gaps, used in at least this many seat-games.
USAGE_ROWS, USAGE_MIN = 12, 20


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def would_see(detectable: float, games_for: Callable[[float], int], unit: str = "points", scale: float = 100.0,
              steps: Sequence[float] = SHARE_STEPS) -> str:
    """'; N games would see S points' for the largest round step S below ``detectable`` (``games_for(S)``)."""
    step = power.smaller_step(detectable, steps)
    if step is None:
        return ""
    amount = scale * step
    return f"; {games_for(step):,} games would see {amount:g} {unit[:-1] if amount == 1 and unit.endswith('s') else unit}"


def family_line(claims: list[dict[str, Any]], noun: str) -> str:
    """One bullet for a run's balance claims (one Holm family): what it claims and what it could not see."""
    m = claims[0]["family"]
    parts = []
    for c in claims:
        if c["claimed"]:
            side = "favoured" if c["rate"] > c["fair"] else "disadvantaged"
            who = c["label"][0].lower() + c["label"][1:] + (f", who {c['first']}," if c.get("first") else "")
            parts.append(f"{who} wins {pct(c['rate'])} [{pct(c['lo'])}, {pct(c['hi'])}] ({level_text(c['alpha'])}) against a fair {pct(c['fair'])}: "
                         f"**{side}** (p = {c['p_holm']:.2g} after Holm)")
    quiet = [c for c in claims if not c["claimed"] and not c.get("first_player")]
    if quiet:
        widest = max(c["detectable"] for c in quiet)
        c0 = max(quiet, key=lambda c: c["detectable"])
        firsts = [c for c in quiet if c.get("first")]
        note = f" ({firsts[0]['label'][0].lower() + firsts[0]['label'][1:]} {firsts[0]['first']})" if firsts else ""
        other = "no other" if len(quiet) < len([c for c in claims if not c.get("first_player")]) else "no"
        parts.append(f"{other} {noun} wins more or less than a fair {pct(c0['fair'])} beyond chance{note}: "
                     f"not shown, these games cannot see an edge smaller than {100 * widest:.1f} points either way"
                     + would_see(widest, lambda e: power.games_to_see_share(e, c0["fair"], c0["alpha"])))
    for c in claims:
        if c.get("first_player") and not c["claimed"]:
            parts.append(f"the first player wins {pct(c['rate'])} [{pct(c['lo'])}, {pct(c['hi'])}] ({level_text(c['alpha'])}) against a fair "
                         f"{pct(c['fair'])}: no edge beyond chance; these {c['n']:,} games cannot see a first-player edge smaller than "
                         f"{100 * c['detectable']:.1f} points either way"
                         + would_see(c["detectable"], lambda e: power.games_to_see_share(e, c["fair"], c["alpha"])))
    return (f"- balance ({m} claims, one Holm family; intervals at each claim's Holm level, 80% power): "
            + "; ".join(parts))


def run_figures(label: str, rows: Sequence[dict[str, Any]]) -> list[str]:
    """One run's figures: seat and side win rates, the balance family, completion, length and the usage table."""
    from .metrics import summary
    from .verdict import family

    players = rows[0]["players"]
    res = summary(rows, players)
    agents = rows[0]["agents"]
    lines = [f"#### {label}", "",
             f"{len(rows)} games, agents {', '.join(agents) if not isinstance(agents, str) else agents}, "
             f"variant `{rows[0]['variant']}`, {players} players.", "",
             "| seat | win rate | 95% CI (uncorrected) |", "| --- | --- | --- |"]
    for s, r in enumerate(res["win_by_seat"]):
        lines.append(f"| {s} | {pct(r['rate'])} | {pct(r['ci_low'])} - {pct(r['ci_high'])} |")
    if res.get("roles_add_information"):
        lines += ["", "| side or role | win rate | 95% CI (uncorrected) |", "| --- | --- | --- |"]
        for role, r in res["win_by_role"].items():
            lines.append(f"| {role} | {pct(r['rate'])} | {pct(r['ci_low'])} - {pct(r['ci_high'])} |")
    lines.append("")
    if players > 1:
        claims = family(rows, players, roles=bool(res.get("roles_add_information")))
        lines.append(family_line(claims, "side" if any("role" in c for c in claims) else "seat"))
    comp, t = res["completion"], res["turns"]
    lines += [
        f"- truncated {comp['truncated']} ({pct(comp['truncated_rate'])}); no winner {comp['no_winner']}",
        f"- length {t['mean']:.1f} turns (median {t['median']:.0f}, quartiles {t['q1']:.0f}-{t['q3']:.0f}); "
        f"{res['decisions']['mean']:.0f} decisions",
        f"- lead changes per game {res['lead_changes']['mean']:.2f}; mean branching {res['branching']['mean']:.1f}",
    ]
    usage = [u for u in res["usage"] if u["delta"] is not None and u["seat_games_used"] >= USAGE_MIN]
    if usage:
        lines += ["", "| key | uses | win when used | win when not | delta |", "| --- | --- | --- | --- | --- |"]
        for u in sorted(usage, key=lambda u: (-abs(u["delta"]), u["key"]))[:USAGE_ROWS]:
            lines.append(f"| `{u['key']}` | {u['occurrences']} | {pct(u['win_used'])} | {pct(u['win_unused'])} | {100 * u['delta']:+.1f} |")
    lines.append("")
    return lines


def _cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def block(doc: dict[str, Any], runs: dict[str, Sequence[dict[str, Any]]], command: str) -> str:
    """The generated part of a findings page, markers included, from a study's answers (``doc``, as
    :func:`boardlab.playtest.study.run_study` returns it) and each run's games (by run folder, as ``doc["runs"]`` names it)."""
    qs = doc["questions"]
    capped = {p["id"] for p in doc.get("plan", []) if p.get("capped")}
    lines = [BEGIN, "",
             f"_Generated by `{command}` (seed {doc['seed']}; every run a pilot of {doc['pilot_games']} games, then as many as its "
             f"questions need to see their smallest effect with 80% power, at most {doc['max_games']:,}). Every figure between "
             f"these markers comes from that study's runs; do not edit it by hand. The {len(qs)} questions are one family: "
             f"p-values are Holm-corrected across all of them, and each interval is taken at the level of the Holm step that "
             f"decided its question._", "",
             "### The questions", "",
             "| the seed says | the simulation | verdict |", "| --- | --- | --- |"]
    for a in qs:
        lines.append(f"| {_cell(a['ask'] or a['id'])} | {_cell(a['words'].split(': ', 1)[1])} | **{a['verdict']}** |")
    lines += ["", "| question | metric | run | against | games | p (Holm) | verdict |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for a in qs:
        metric = a["metric"] + (f" of {a['who']}" if a.get("who") else "")
        if a.get("base"):
            against = f"`{a['base']}`"
        elif a["metric"] == "balance":
            against = "fair shares"
        else:
            against = pct(a["reference"]) if a["metric"] == "win-rate" else f"{a['reference']:g}"
        games = f"{a['n']:,}" + (" (capped)" if a["id"] in capped else "")
        p = f"{a['p_holm']:.2g}" if a["p_holm"] >= 0.001 else "< 0.001"
        lines.append(f"| `{a['id']}` | {metric} (expect {a['expect']}, smallest effect {a['smallest_effect']:g}) | `{_cell(a['variant'])}` | "
                     f"{_cell(against)} | {games} | {p} | {a['verdict']} |")
    if capped:
        lines += ["", "_(capped): the pilot said the question needs more games than the study's cap to see its smallest effect; "
                      "an undecided verdict says how many would see it._"]
    lines += ["", "### The runs", "",
              "Each run below is one setting of the study, on the same seeds (game *i* of every run starts from the same seed). "
              "Win rates carry Wilson 95% intervals (one row alone, descriptive); the balance line is the run's own Holm family. "
              "Usage tables list the game's counters with the largest win-rate gaps (used vs not used, per seat): correlation, not cause.",
              ""]
    for r in doc["runs"]:
        lines += run_figures(r["label"], runs[r["folder"]])
    lines.append(END)
    return "\n".join(lines)


def replace_block(text: str, new: str, where: str = "findings page") -> str:
    """``text`` with its one generated block replaced by ``new`` (both markers must be there, once each)."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise InvalidOptionError(f"{where} needs one {BEGIN} ... {END} block (the part the study writes)")
    return re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _m: new, text, count=1, flags=re.S)


def write(page: str | Path, doc: dict[str, Any], command: str | None = None) -> Path:
    """Rewrite the generated block of findings page ``page`` from a finished study (``doc``: study.json's content;
    each run's games are read from its folder). The prose outside the markers is kept byte for byte."""
    from .store import RunDir

    page = Path(page)
    if not page.is_file():
        raise InvalidOptionError(f"findings page {page} does not exist (create it with a {BEGIN} ... {END} block)")
    text = page.read_text(encoding="utf-8")
    replace_block(text, "", str(page))  # check the markers before reading any run
    runs = {r["folder"]: [g for g in RunDir(r["folder"]).read_results() if g["index"] < r["games"]] for r in doc["runs"]}
    command = command or f"boardlab study {doc['study']} --findings {page.as_posix()}"
    atomic_write(page, replace_block(text, block(doc, runs, command), str(page)), "findings page", error=BoardlabError)
    return page
