"""The report's sections that other lab modules measure: luck against skill (:mod:`.luck`) and the skill check
(:mod:`.skill`), formatted from their saved documents.

Formatting only, importing no other lab module: :mod:`.report` draws these sections from here while
:mod:`.luck` and :mod:`.skill` import the report to write it, so the lab's modules import in one direction (the
import-linter contract "The playtest lab's modules import in one direction" in pyproject.toml).
"""

from __future__ import annotations

from typing import Any

NOT_MEASURED = "- luck against skill: not measured (add --luck-games N)"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def luck_lines(doc: dict[str, Any] | None) -> list[str]:
    """The Experience section's luck-against-skill bullets (formulas in docs/playtest.md "Luck against skill")."""
    if not doc:
        return [NOT_MEASURED]
    if not doc.get("matchups"):
        return [f"- luck against skill: not measured ({doc.get('reason', 'no games')})"]
    n = doc["players"]
    sides = any(m.get("sides") for m in doc["matchups"])
    unit = "the strong seat's side's points (a side's win 1, a draw 1/sides)" if sides else f"the strong seat's points (a win 1, a draw 1/{n})"
    how = ("one strong seat against weak ones" if n > 2 else "strong against weak") + ", the strong seat rotated over the seats"
    out = [f"- luck against skill ({n} players, {how}; {unit} per game, Wilson 95% intervals):"]
    names = {"heuristic-random": "heuristic against random", "search-heuristic": f"search (`{doc['search']}`) against the heuristic"}
    for m in doc["matchups"]:
        if not m["games"]:
            out.append(f"  - {names.get(m['id'], m['id'])}: not played (0 games asked for)")
            continue
        trunc = f"; {m['truncated']} truncated (0 points)" if m.get("truncated") else ""
        table = (f" (the skill check's table, arena: {doc['search_evidence']})"
                 if m["id"] == "search-heuristic" and doc.get("search_evidence") else "")
        out.append(f"  - {names.get(m['id'], m['id'])}: {_pct(m['rate'])} [{_pct(m['ci_low'])}, {_pct(m['ci_high'])}] "
                   f"of {m['games']} games, against a fair share of {_pct(m['fair'])}{trunc}{table}")
    d = doc.get("dice") or {}
    if d.get("status") == "measured":
        c, a, x, t = d["chance"], d["decisions"], d["interaction"], d["chance_total"]
        f = lambda s: f"{_pct(s['estimate'])} [{_pct(s['ci_low'])}, {_pct(s['ci_high'])}]"  # noqa: E731
        out.append(f"  - dice share of outcomes (heuristic against random, {d['units']} units of three games on common "
                   f"random numbers; bootstrap 95% intervals): the chance stream alone explains {f(c)} of the outcome's "
                   f"variance, the agents' choices alone {f(a)}, their interaction {f(x)} (chance takes part in at most {f(t)})")
    elif d.get("status") == "none":
        out.append("  - dice share of outcomes: 0 by construction (the game has no chance)")
    else:
        out.append(f"  - dice share of outcomes: {d.get('status', 'not measured')}: {d.get('reason', '')}")
    return out


# --- the CLI ---------------------------------------------------------------------------------------------------


def _p(x: float) -> str:
    return f"{100 * x:.0f}%"


def _level(it: dict[str, Any], which: str, margin: float) -> str:
    lv = it.get(which)
    if lv is None:
        return "not re-tested"
    word = lv["verdict"] or "not yet decided"
    if word in ("even", "no effect"):
        word = f"{'no edge' if word == 'even' else 'no effect'} " + ("beyond chance" if which == "base" else f"over {100 * margin:.0f} pts")
    if it["kind"] == "balance":
        return f"{_p(lv['rate'])} [{_p(lv['ci_low'])}, {_p(lv['ci_high'])}] of {lv['n']}: {word}"
    if which == "base":
        return f"{100 * lv['difference']:+.0f} pts [{100 * lv['ci_low']:+.0f}, {100 * lv['ci_high']:+.0f}] of {lv['n']}: {word}"
    return (f"{100 * lv['difference']:+.0f} pts (seeds won only with the variant: {lv['b_only']}, only without: {lv['a_only']}; "
            f"share of seeds it changes at most {_p(lv['changed_high'])}) of {lv['n']}: {word}")


def skill_lines(doc: dict[str, Any]) -> list[str]:
    """The report's "Skill check" section: both levels side by side, one row per claim."""
    base = ", ".join(sorted(set(doc["base_agents"])))
    default = doc["strength"]["spec"]
    other = f" (the table's search for this game is `{default}`; this check plays `{doc['skill_agent']}`)" if default != doc["skill_agent"] else ""
    if not doc["retested"]:
        return [f"Do the verdicts hold for stronger play? **Not re-tested:** {doc['reason']}.", "",
                "| claim | base level | skill level |", "| --- | --- | --- |"] + [
                f"| {it['label']} | {_level(it, 'base', doc['margin'])} | not re-tested: the search plays no better here |" for it in doc["items"]]
    lines = [f"Do the verdicts hold for stronger play? Base level: `{base}`; skill level: `{doc['skill_agent']}` in every seat, "
             f"on the same game seeds. The search against the heuristic at {doc['players']} players: {doc['strength']['evidence']}{other}.", ""]
    if doc["strength"]["stronger"] is None:
        lines += ["Caution: the search's edge over the heuristic at this player count is assumed, not shown, so a verdict "
                  "that holds or changes here does so for a different player, not necessarily a better one.", ""]
    if not all(a == "heuristic" for a in doc["base_agents"]):
        lines += ["The strength table compares the search with the heuristic; this run's agents were others.", ""]
    counts = {s: sum(1 for it in doc["items"] if it["status"] == s) for s in ("holds", "changes", "undecided")}
    how = (f"every claim decided after {doc['games_played']} games" if doc["decided"] else
           f"stopped at the cap of {doc['games_max']} games with {counts['undecided']} claim(s) undecided")
    cpu = f", {doc['cpu_seconds']:.0f} CPU-s" if doc.get("cpu_seconds") is not None else ""
    eng = doc.get("engine") or {}
    played_on = (f", on the compiled core {eng.get('core_version', '')}".rstrip() if eng.get("engine") == "core"
                 else f", on the Python rules ({eng['reason']})" if eng else "")
    lines += [f"{doc['games_played']} skill games per variant ({how}; {doc['seconds']:.0f} s{cpu} this session{played_on}): "
              f"{counts['holds']} hold, {counts['changes']} change, {counts['undecided']} undecided. Base intervals are the verdict's "
              f"(Wilson at its Holm step; a variant's, its paired test's interval at its Holm step); skill intervals are anytime-valid 95% "
              f"confidence sequences, Bonferroni across all of them. \"even\" / \"no effect\" means within {100 * doc['margin']:.0f} points.", "",
              "| claim | base level | skill level | at higher skill |", "| --- | --- | --- | --- |"]
    for it in doc["items"]:
        lines.append(f"| {it['label']} | {_level(it, 'base', doc['margin'])} | {_level(it, 'skill', doc['margin'])} | **{it['status']}** |")
    return lines
