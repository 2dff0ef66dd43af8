"""A run's verdict in plain words, generated from the numbers and their intervals.

Each sentence claims only what its interval supports: a seat or side is called
favoured only when the exact binomial test against its fair share rejects after
Holm's correction across the seats (or sides), and the Wilson interval is
printed beside it. Otherwise the sentence says what the run cannot tell apart,
and how wide its intervals are.

Contribution keys are split into *choices* (tags of actions a player takes:
``card:Ambush``) and *events* (things that happen in play: ``dragon:won``,
``rule:respawn``). An event's correlation with winning is mechanical (a
consequence of how the game went, often of its result), never a reason to change
a rule; a choice's correlation is still only a correlation, and restricted play
(``--restrict``) measures its effect.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.stats import binom_two_sided, holm, mean_ci, wilson


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def interval(lo: float, hi: float) -> str:
    return f"[{100 * lo:.0f}, {100 * hi:.0f}]"


def classify_keys(keys: Sequence[str], action_tags: Sequence[str] | None) -> dict[str, str]:
    """``choice`` for keys that are action tags (a player chose them), ``event`` for the rest."""
    tags = {t.lower() for t in (action_tags or ())}
    return {k: ("choice" if k.lower() in tags else "event") for k in keys}


def _seat_tests(rows: Sequence[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    n = len(rows)
    fair = 1.0 / players
    out = []
    for s in range(players):
        k = sum(1 for r in rows if s in r["winners"])
        lo, hi = wilson(k, n)
        out.append({"label": f"Seat {s}", "k": k, "n": n, "rate": k / n if n else 0.0, "lo": lo, "hi": hi, "fair": fair,
                    "p": binom_two_sided(k, n, fair)})
    return out


def _role_tests(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Sides (roles), when every game has at most one winning role; the fair share is 1/number of roles."""
    roles = sorted({role for r in rows for role in r["roles"]})
    if len(roles) < 2 or any(len(set(r.get("winner_roles") or [])) > 1 for r in rows):
        return None
    fair = 1.0 / len(roles)
    n = len(rows)
    out = []
    for role in roles:
        k = sum(1 for r in rows if role in (r.get("winner_roles") or []))
        lo, hi = wilson(k, n)
        out.append({"label": f"The {role} side" if not role.startswith("seat ") else role, "k": k, "n": n, "rate": k / n if n else 0.0,
                    "lo": lo, "hi": hi, "fair": fair, "p": binom_two_sided(k, n, fair)})
    return out


def _family(tests: list[dict[str, Any]], noun: str, fair_word: str) -> list[str]:
    reject, adjusted = holm([t["p"] for t in tests])
    lines = []
    for t, rej, p in zip(tests, reject, adjusted):
        if rej:
            side = "favoured" if t["rate"] > t["fair"] else "disadvantaged"
            lines.append(f"{t['label']} wins {pct(t['rate'])} {interval(t['lo'], t['hi'])} against {fair_word} {pct(t['fair'])}: "
                         f"{t['label'][0].lower() + t['label'][1:]} is {side} (p = {p:.2g} after Holm's correction across {noun}).")
    if not lines:
        widest = max((t["hi"] - t["lo"]) / 2 for t in tests)
        lines.append(f"No {noun[:-1] if noun.endswith('s') else noun} wins more or less than {fair_word} {pct(tests[0]['fair'])} beyond chance "
                     f"(no exact binomial test against it is significant after Holm's correction; over {tests[0]['n']} games the intervals "
                     f"are about ±{100 * widest:.0f} points, so smaller differences cannot be seen).")
    return lines


def verdict(result: dict[str, Any], rows: Sequence[dict[str, Any]], players: int, kinds: dict[str, str] | None = None) -> list[str]:
    """Plain sentences, each backed by a figure and its 95% interval."""
    n = len(rows)
    if n == 0:
        return ["No games were played."]
    lines: list[str] = []
    seq = result.get("sequential")
    if seq:
        spans = "; ".join(f"{i['label']} {pct(i['rate'])} {interval(i['ci_low'], i['ci_high'])}" for i in seq["intervals"])
        if seq.get("stopped"):
            lines.append(f"Stopped after {seq['games_played']} of at most {seq['games_max']} games ({seq['games_saved']} saved): "
                         f"every win rate is known to within {100 * seq['until_ci']:.0f} points ({spans}; anytime-valid 95% intervals).")
        else:
            lines.append(f"Played all {seq['games_played']} games without reaching intervals {100 * seq['until_ci']:.0f} points wide "
                         f"(widest {100 * seq['max_width']:.0f}: {spans}; anytime-valid 95% intervals).")
    roles = _role_tests(rows) if result.get("roles_add_information") else None
    if roles:
        lines += _family(roles, "sides", "an even share of")
    elif players > 1:
        lines += _family(_seat_tests(rows, players), "seats", "a fair")
    fpa = result.get("first_player_advantage") or {}
    if players > 1 and fpa:
        fair = fpa["fair"]
        rate = fpa["first_rate"] if fpa.get("measures") == "first to act" else fpa["seat0_rate"]
        lo, hi = fpa["ci_low"] + fair, fpa["ci_high"] + fair
        who = "The first player (the seat that acted first)" if fpa.get("measures") == "first to act" else "Seat 0 (who acted first was not recorded)"
        if lo > fair:
            tail = "the first player has an advantage." if fpa.get("measures") == "first to act" else "seat 0 has an advantage."
        elif hi < fair:
            tail = "the first player is at a disadvantage." if fpa.get("measures") == "first to act" else "seat 0 is at a disadvantage."
        else:
            tail = "no first-player advantage can be seen."
        lines.append(f"{who} wins {pct(rate)} {interval(lo, hi)} against a fair {pct(fair)}: {tail}")
    comp = result["completion"]
    if comp["truncated"]:
        lo, hi = wilson(comp["truncated"], n)
        lines.append(f"{pct(comp['truncated_rate'])} {interval(lo, hi)} of games hit the turn cap without a result; "
                     "they count as a win for nobody, so every win rate above is lower by that much.")
    mean, lo, hi = mean_ci([r["turns"] for r in rows])
    lines.append(f"A game lasts {mean:.1f} turns on average [{lo:.1f}, {hi:.1f}] (median {result['turns']['median']:.0f}, "
                 f"from {result['turns']['min']} to {result['turns']['max']}).")
    kinds = kinds or {}
    usage = [u for u in result.get("usage", []) if u.get("significant")]
    choices = sorted((u for u in usage if kinds.get(u["key"]) == "choice"), key=lambda u: -abs(u["delta"]))[:3]
    for u in choices:
        lo, hi = u["delta_ci"]
        scope = f" (within the {', '.join(u['within_roles'])} role)" if u.get("within_roles") else ""
        lines.append(f"Players who use {u['key']} win {100 * u['delta']:+.0f} points {interval(lo, hi)} more often than those who do not{scope}: "
                     f"a correlation, not a cause; measure it with --restrict SEAT={u['key']}.")
    events = [u for u in usage if kinds.get(u["key"]) != "choice"]
    if events:
        lines.append(f"{len(events)} event key(s) ({', '.join(u['key'] for u in sorted(events, key=lambda u: -abs(u['delta']))[:4])}"
                     f"{', ...' if len(events) > 4 else ''}) go with winning or losing; they are consequences of play, not choices, "
                     "and say nothing about which rule to change.")
    if not choices and kinds and any(kinds.get(u["key"]) == "choice" for u in result.get("usage", [])):
        lines.append("No card, token or rule a player chooses goes with winning beyond chance (after Holm's correction across all keys).")
    return lines
