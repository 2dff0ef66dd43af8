"""A run's verdict in plain words, generated from the numbers and their intervals.

Each sentence claims only what its interval supports. The balance claims (every
side or seat, and the first player) are one family (:func:`family`): a claim is
made only when its score test against the fair share rejects after Holm's
correction across the whole family, and the Wilson interval printed beside it is
taken at the level of the Holm step that decided it, so a claim is made exactly
when its interval excludes the fair share and two lines can never disagree. When
the first player is always the same seat or side, the two are one claim. A draw
(a finished game nobody won) counts as an equal share for every seat. Otherwise
the sentence says what the run could not see: the smallest edge it would have
detected with 80% power, and how many games would see 2 points.

Contribution keys are split into *choices* (tags of actions a player takes:
``card:Ambush``) and *events* (things that happen in play: ``dragon:won``,
``rule:respawn``). An event's correlation with winning is mechanical (a
consequence of how the game went, often of its result), never a reason to change
a rule; a choice's correlation is still only a correlation, and restricted play
(``--restrict``) measures its effect.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.stats import ALPHA, level_text, mean_ci, score_p, wilson

from .power import detectable_share, games_to_see_share


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def interval(lo: float, hi: float, alpha: float | None = None) -> str:
    """``[20, 33]``, and with its level where one is given: ``[20, 33] (98.33% interval)`` (issue 46: every printed
    interval says its level)."""
    span = f"[{100 * lo:.0f}, {100 * hi:.0f}]"
    return span if alpha is None else f"{span} ({level_text(alpha)})"


def classify_keys(keys: Sequence[str], action_tags: Sequence[str] | None, content_kinds: Sequence[str] = ()) -> dict[str, str]:
    """``choice`` for keys that are action tags (a player chose them), ``content`` for drawn, dealt or rolled content
    the designer can remove (``item:gloves`` where ``item`` is one of the game's ``content_kinds``: test it with
    ``without:item:gloves``), ``event`` for the rest."""
    tags = {t.lower() for t in (action_tags or ())}
    kinds = {k.lower() for k in content_kinds}
    return {k: ("choice" if k.lower() in tags else "content" if k.split(":", 1)[0].lower() in kinds and ":" in k else "event")
            for k in keys}


def _points(r: dict[str, Any], seat: int, players: int) -> float:
    """A seat's points in one game: 1 for a win, an equal share of a draw (a finished game nobody won), else 0."""
    if seat in r["winners"]:
        return 1.0
    if not r["winners"] and not r.get("truncated"):
        return 1.0 / players
    return 0.0


def _claim(label: str, k: float, n: int, fair: float, **extra: Any) -> dict[str, Any]:
    return {"label": label, "k": k, "n": n, "rate": k / n if n else 0.0, "fair": fair, "p": score_p(k, n, fair), **extra}


def _seat_tests(rows: Sequence[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    n = len(rows)
    return [_claim(f"Seat {s}", sum(_points(r, s, players) for r in rows), n, 1.0 / players, seat=s) for s in range(players)]


def _role_tests(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Sides (roles), when every game has at most one winning role; the fair share is 1/number of roles."""
    roles = sorted({role for r in rows for role in r["roles"]})
    if len(roles) < 2 or any(len(set(r.get("winner_roles") or [])) > 1 for r in rows):
        return None
    fair = 1.0 / len(roles)
    n = len(rows)
    out = []
    for role in roles:
        k = sum(1.0 if role in (r.get("winner_roles") or []) else (fair if not r["winners"] and not r.get("truncated") else 0.0)
                for r in rows)
        out.append(_claim(f"The {role} side" if not role.startswith("seat ") else role, k, n, fair, role=role))
    return out


def _first_player_test(rows: Sequence[dict[str, Any]], players: int, tests: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first player's claim, or None when it is the same games as a seat's or side's claim.

    When the seat (or role) that acts first is the same in every game (the Labyrinth's wizard, Blackfire's
    green), the first-player test and that seat's (side's) test count the same wins: the two are stated as
    one claim ("the wizard, who always acts first, ...") so they can never disagree.
    """
    if not all(r.get("first_seat") is not None for r in rows):
        return None  # an old run that did not record who acted first: no first-player claim
    firsts = {r["first_seat"] for r in rows}
    for t in tests:
        if "seat" in t and firsts == {t["seat"]}:
            t["first"] = "always acts first"
            return None
        if "role" in t and {r["roles"][r["first_seat"]] for r in rows} == {t["role"]}:
            t["first"] = "always acts first"
            return None
    k = sum(_points(r, r["first_seat"], players) for r in rows)
    return _claim("The first player (the seat that acted first)", k, len(rows), 1.0 / players, first_player=True)


def _detectable(n: int, fair: float, alpha: float) -> float:
    """The smallest edge over ``fair`` the claim's test sees with 80% power over ``n`` games (:mod:`.power`)."""
    return detectable_share(n, fair, alpha)


def _games_to_see(edge: float, fair: float, alpha: float) -> int:
    return games_to_see_share(edge, fair, alpha)


def family(rows: Sequence[dict[str, Any]], players: int, roles: bool = False) -> list[dict[str, Any]]:
    """Every balance claim of a report as one family: sides (or seats) and the first player.

    Each claim's p-value is the score test against its fair share, corrected by Holm's step-down across the
    whole family. Its printed interval is the Wilson interval (the score test's inversion) at the level of
    the Holm step that decided it, so a claim is made exactly when its interval excludes the fair share:
    no line of a verdict can contradict another or its own interval. Claims not made carry the smallest
    edge the run could have seen (80% power at their step's level).
    """
    tests = (_role_tests(rows) if roles else None) or _seat_tests(rows, players)
    first = _first_player_test(rows, players, tests)
    claims = tests + ([first] if first else [])
    m = len(claims)
    order = sorted(range(m), key=lambda i: claims[i]["p"])
    stopped = False
    previous: dict[str, Any] | None = None
    for step, i in enumerate(order):
        c = claims[i]
        level = ALPHA / (m - step)
        if previous is not None and previous["claimed"] and previous["p"] == c["p"]:
            level = previous["alpha"]  # tied claims share their group's strictest level (and so one interval width)
        if not stopped and c["p"] < level:
            c["claimed"] = True
        else:
            if not stopped:
                stop_level = level
            stopped = True
            c["claimed"] = False
            level = stop_level
        c["alpha"] = level
        c["lo"], c["hi"] = wilson(c["k"], c["n"], alpha=level)
        c["p_holm"] = min(1.0, max(claims[j]["p"] * (m - s) for s, j in enumerate(order[: step + 1])))
        c["detectable"] = _detectable(c["n"], c["fair"], level)
        c["family"] = m
        previous = c
    return claims


def _family_lines(claims: list[dict[str, Any]], noun: str, fair_word: str) -> list[str]:
    lines = []
    m = claims[0]["family"] if claims else 0
    for c in claims:
        if not c["claimed"]:
            continue
        side = "favoured" if c["rate"] > c["fair"] else "disadvantaged"
        who = c["label"] + (f", who {c['first']}," if c.get("first") else "")
        subject = "the first player" if c.get("first_player") else c["label"][0].lower() + c["label"][1:]
        lines.append(f"{who} wins {pct(c['rate'])} {interval(c['lo'], c['hi'], c['alpha'])} against {fair_word if not c.get('first_player') else 'a fair'} "
                     f"{pct(c['fair'])}: {subject} is {side} (p = {c['p_holm']:.2g} after Holm's correction across the {m} claims of this verdict).")
    quiet = [c for c in claims if not c["claimed"] and not c.get("first_player")]
    if quiet:
        widest = max(c["detectable"] for c in quiet)
        what = noun[:-1] if noun.endswith("s") else noun
        firsts = [c for c in quiet if c.get("first")]
        first_note = f" ({firsts[0]['label'][0].lower() + firsts[0]['label'][1:]} {firsts[0]['first']})" if firsts else ""
        if len(quiet) == len(claims) - sum(1 for c in claims if c.get("first_player")):
            head = f"No {what} wins more or less than {fair_word} {pct(quiet[0]['fair'])} beyond chance{first_note}"
        else:
            head = f"No other {what} wins more or less than {fair_word} {pct(quiet[0]['fair'])} beyond chance{first_note}"
        lines.append(f"{head}: these {quiet[0]['n']} games cannot see an edge smaller than {100 * widest:.1f} points either way "
                     f"(80% power, after Holm's correction across the {m} claims); "
                     f"{_games_to_see(0.02, quiet[0]['fair'], quiet[0]['alpha']):,} games would see 2 points.")
    for c in claims:
        if c.get("first_player") and not c["claimed"]:
            lines.append(f"{c['label']} wins {pct(c['rate'])} {interval(c['lo'], c['hi'], c['alpha'])} against a fair {pct(c['fair'])}, "
                         f"no edge beyond chance: these {c['n']} games cannot see a first-player edge smaller than "
                         f"{100 * c['detectable']:.1f} points either way (80% power); "
                         f"{_games_to_see(0.02, c['fair'], c['alpha']):,} games would see 2 points.")
    return lines


def verdict(result: dict[str, Any], rows: Sequence[dict[str, Any]], players: int, kinds: dict[str, str] | None = None,
            variant: str | None = None) -> list[str]:
    """Plain sentences, each backed by a figure and its interval, labelled with its level. ``variant`` names the run's
    variant in the experiment a content key's line offers (``--variant rulebook+without:item:gloves``)."""
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
    if players > 1:
        roles = bool(result.get("roles_add_information")) and _role_tests(rows) is not None
        drawn = sum(1 for r in rows if not r["winners"] and not r.get("truncated"))
        if drawn == n:
            lines.append(f"All {n} games were drawn: nobody won, so every seat scores an even share.")
        else:
            if drawn:
                lo, hi = wilson(drawn, n)
                lines.append(f"{pct(drawn / n)} {interval(lo, hi, ALPHA)} of games were drawn; a draw counts as an equal share for every seat.")
            lines += _family_lines(family(rows, players, roles), "sides" if roles else "seats", "an even share of" if roles else "a fair")
    comp = result["completion"]
    if comp["truncated"]:
        lo, hi = wilson(comp["truncated"], n)
        lines.append(f"{pct(comp['truncated_rate'])} {interval(lo, hi, ALPHA)} of games hit the turn cap without a result; "
                     "they count as a win for nobody, so every win rate above is lower by that much.")
    mean, lo, hi = mean_ci([r["turns"] for r in rows])
    lines.append(f"A game lasts {mean:.1f} turns on average [{lo:.1f}, {hi:.1f}] ({level_text(ALPHA)}; median {result['turns']['median']:.0f}, "
                 f"from {result['turns']['min']} to {result['turns']['max']}).")
    kinds = kinds or {}
    usage = [u for u in result.get("usage", []) if u.get("significant")]
    choices = sorted((u for u in usage if kinds.get(u["key"]) == "choice"), key=lambda u: -abs(u["delta"]))[:3]
    for u in choices:
        lo, hi = u["delta_ci"]
        scope = f" (within the {', '.join(u['within_roles'])} role)" if u.get("within_roles") else ""
        lines.append(f"Players who use {u['key']} win {100 * u['delta']:+.0f} points {interval(lo, hi, u.get('alpha', ALPHA))} more often than those who do not{scope}: "
                     f"a correlation, not a cause; measure it with --restrict SEAT={u['key']}.")
    content = sorted((u for u in usage if kinds.get(u["key"]) == "content"), key=lambda u: -abs(u["delta"]))[:3]
    for u in content:
        lo, hi = u["delta_ci"]
        scope = f" (within the {', '.join(u['within_roles'])} role)" if u.get("within_roles") else ""
        base = f"{variant}+" if variant else ""
        lines.append(f"Players who get {u['key']} win {100 * u['delta']:+.0f} points {interval(lo, hi, u.get('alpha', ALPHA))} more often than those who do not{scope}: "
                     f"a correlation, not a cause (it is drawn, dealt or rolled, not chosen); test it by playing the same seeds "
                     f"without it: --variant {base}without:{u['key']}, then compare the two runs.")
    events = [u for u in usage if kinds.get(u["key"]) == "event"]
    if events:
        lines.append(f"{len(events)} event key(s) ({', '.join(u['key'] for u in sorted(events, key=lambda u: -abs(u['delta']))[:4])}"
                     f"{', ...' if len(events) > 4 else ''}) go with winning or losing; they are consequences of play, not choices, "
                     "and say nothing about which rule to change.")
    if not choices and kinds and any(kinds.get(u["key"]) == "choice" for u in result.get("usage", [])):
        lines.append("No card, token or rule a player chooses goes with winning beyond chance (after Holm's correction across all keys).")
    return lines
