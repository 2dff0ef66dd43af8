"""Study files: a designer's questions about one game, kept in one TOML file and answered with as many games as each needs.

A study names a game and a list of questions. Each question names the variant (content edits allowed:
``rulebook+without:item:gloves``), the agents, a metric and what the designer expects of it, against a fair
share, a fixed target or a base variant played on the same seeds, and the smallest effect that matters::

    game = "dungeons-jewel"
    seed = 2026

    [[question]]
    id = "first-player"
    ask = "The player who started the game usually has a significant advantage."
    metric = "win-rate"
    who = "first player"
    expect = "above"            # above | below | differs | none
    smallest_effect = 0.05      # 5 points

A question may also play restricted (``restrict = { 0 = "card:Switcheroo" }``, and ``base_restrict``), cap its
own games (``max_games``), and ask of a usage counter (``metric = "count:rule:kill"``: per game, summed over the
seats). :mod:`boardlab.playtest.findings` writes a study's answers into its findings page.

How many games (:func:`plan_games`): every run first plays ``pilot_games`` games; from their spread (the fair
share, the discordance of paired results, the per-game standard deviation of a length) each question gets the
games that see its smallest effect with 80% power at level ``0.05 / m`` (the strictest step of Holm's correction
across the study's ``m`` questions), capped at ``max_games``; a run then grows to the most any of its questions
needs (game *i* always uses the same seed, so a grown run keeps the games it has played).

The answers (:func:`answer`) are one Holm family across every question. Each question's interval is taken at the
level of the Holm step that decided it, and its verdict follows from that interval and the smallest effect ``d``:

* ``above``: *does not hold* when the interval lies below ``+d`` (no edge that matters), *holds* when it lies
  above 0, otherwise *undecided*; ``below`` is the mirror image;
* ``differs``: *does not hold* when the interval lies inside ``(-d, +d)``, *holds* when it excludes 0;
* ``none`` (fair, no effect): *holds* when the interval lies inside ``(-d, +d)``, *does not hold* when it
  excludes 0;
* otherwise *undecided*, with the effect the run could see (80% power at its Holm level) and the games that
  would see ``d``.

One procedure per answer (issue 46), each test with the interval that inverts it (:mod:`boardlab.stats`), so a
verdict, its p-value and its interval never disagree: the score test and Wilson's interval for a win rate against a
share; the balance family of :func:`boardlab.playtest.verdict.family` for "every seat (side) and the first player
are fair" (Bonferroni inside the question); for a variant against its base, paired by seed, the exact sign test
with Clopper-Pearson's interval when every game scores 0 or 1 (a seat's, a side's or the first player's wins
without draws), else the paired t-test with its t interval (draws, lengths, experience, counters); and Student's t
for a mean against a target. A question with a direction (``above``, ``below``) takes the one-sided test; its
interval is then the two-sided one at twice its level, each end a one-sided bound at its level, and its words say
so. A question is *rejected* (``p_holm <= 0.05``) exactly when its interval excludes zero on the tested side.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from boardlab.engine.errors import BoardlabError, InvalidOptionError
from boardlab.engine.files import atomic_write
from boardlab.stats import ALPHA, level_text, paired_difference, paired_interval, score_test, t_interval, t_test, wilson

from .power import detectable_mean, detectable_paired, detectable_share, games_to_see_mean, games_to_see_paired, games_to_see_share, z_sum

#: Metrics a question may name: win rates, the balance of every seat (side) and the first player, and per-game means.
WIN_RATE = "win-rate"
BALANCE = "balance"
#: Did the distribution of winners change? One paired permutation test across all seats, against a base.
WINNERS = "winners"
MEANS: dict[str, Callable[[dict[str, Any]], float | None]] = {
    "turns": lambda r: r["turns"],
    "decisions": lambda r: r["decisions"],
    "lead-changes": lambda r: r["lead_changes"],
    "closeness": lambda r: r["closeness"],
    # the experience metrics (docs/playtest.md, "Experience"): per game, the mean over seats
    "downtime": lambda r: sum(r["downtime_mean"]) / len(r["downtime_mean"]) if r.get("downtime_mean") else None,
    "waiting-out": lambda r: sum(r["waiting_out"]) / len(r["waiting_out"]) if r.get("waiting_out") else None,
    "decided-at": lambda r: r.get("decided_at"),
}
METRICS = (WIN_RATE, BALANCE, WINNERS, *MEANS)
#: ``count:KEY``: per game, the sum over seats of the game's usage counter KEY (the ``metrics`` column).
COUNT = "count:"


def _counter(key: str) -> Callable[[dict[str, Any]], float | None]:
    def value(r: dict[str, Any]) -> float | None:
        m = r.get("metrics") or {}
        if isinstance(m, str):
            m = json.loads(m)
        v = m.get(key, 0)  # several games record only the counters that happened: an absent counter is 0
        return float(sum(v)) if isinstance(v, (list, tuple)) else float(v)
    return value


def is_mean(metric: str) -> bool:
    """A per-game mean: the lengths, the experience metrics and a usage counter (``count:KEY``)."""
    return metric in MEANS or metric.startswith(COUNT)


def mean_of(metric: str) -> Callable[[dict[str, Any]], float | None]:
    return MEANS[metric] if metric in MEANS else _counter(metric[len(COUNT):])
EXPECTS = ("above", "below", "differs", "none")

STUDY_KEYS = {"title", "game", "seed", "players", "agents", "max_games", "pilot_games", "question"}
QUESTION_KEYS = {"id", "ask", "variant", "base", "options", "base_options", "agents", "base_agents", "players",
                 "metric", "who", "expect", "against", "smallest_effect", "restrict", "base_restrict", "max_games"}
#: The most games any run of a study may play, and the most questions in one study.
MAX_GAMES = 1_000_000
MAX_QUESTIONS = 100
#: Discordance (share of paired games whose result differs) assumed at least this much when planning.
MIN_PSI = 0.02


@dataclass(frozen=True)
class RunSpec:
    """One set of games a study plays: a variant with its options, players and agents (all runs share the seed)."""

    variant: str | None
    options: tuple[tuple[str, Any], ...]
    players: int | None
    agents: tuple[str, ...]
    restrict: tuple[tuple[int, tuple[str, ...]], ...] = ()  # restricted play: seat -> tags it never takes

    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        never = "".join(f", seat {seat} never takes {' or '.join(tags)}" for seat, tags in self.restrict)
        return f"{self.variant or 'default'}{'[' + opts + ']' if opts else ''}" + (f" {self.players}p" if self.players else "") + \
            f" ({', '.join(self.agents)}{never})"


@dataclass
class Question:
    id: str
    ask: str
    metric: str
    expect: str
    smallest_effect: float
    run: RunSpec
    base: RunSpec | None = None
    who: str | None = None
    against: float | str | None = None
    max_games: int | None = None  # the most games this question may use (default: the study's)
    result: dict[str, Any] = field(default_factory=dict)


@dataclass
class Study:
    game: str
    title: str
    seed: int
    max_games: int
    pilot_games: int
    questions: list[Question]
    path: str = ""

    def runs(self) -> list[RunSpec]:
        out: list[RunSpec] = []
        for q in self.questions:
            for r in (q.base, q.run):
                if r is not None and r not in out:
                    out.append(r)
        return out


def _fail(where: str, message: str) -> None:
    raise InvalidOptionError(f"{where}: {message}")


def _int(where: str, key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _fail(where, f"'{key}' must be a whole number from {low} to {high:,}, got {value!r}")
    return value


def _agents(where: str, value: Any) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(a, str) and a.strip() for a in items):
        _fail(where, f"'agents' must be an agent spec or a list of them (one per seat), got {value!r}")
    return tuple(a.strip() for a in items)


def _options(where: str, key: str, value: Any) -> tuple[tuple[str, Any], ...]:
    if not isinstance(value, dict) or not all(isinstance(v, (bool, int, float, str)) for v in value.values()):
        _fail(where, f"'{key}' must be a table of rule options (name = value), got {value!r}")
    return tuple(sorted(value.items()))


def _restrict(where: str, key: str, value: Any) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Restricted play, ``{ 0 = ["card:Unfavorable War"] }``: the tags each seat never takes."""
    out = []
    if isinstance(value, dict):
        for seat, tags in value.items():
            items = [tags] if isinstance(tags, str) else tags
            if not str(seat).isdigit() or not isinstance(items, list) or not items or not all(isinstance(t, str) and t for t in items):
                break
            out.append((int(seat), tuple(items)))
        else:
            return tuple(sorted(out))
    _fail(where, f"'{key}' must be a table of seat = tag or list of tags (restricted play, e.g. {{ 0 = \"card:Switcheroo\" }}), got {value!r}")
    return ()


def parse(doc: dict[str, Any], where: str = "study") -> Study:
    """Check a study document (parsed TOML) and build the :class:`Study`; every game, variant, agent, option and
    metric is checked before any game is played (raises InvalidOptionError, one line)."""
    from boardlab.engine.registry import make

    from .run import plan_run

    unknown = sorted(set(doc) - STUDY_KEYS)
    if unknown:
        _fail(where, f"unknown key {unknown[0]!r} (keys: {', '.join(sorted(STUDY_KEYS))})")
    game_id = doc.get("game")
    if not isinstance(game_id, str):
        _fail(where, "'game' must name a game, e.g. game = \"dungeons-jewel\"")
    default_variant = make(game_id).config()["variant"]  # an unknown game is a one-line error naming the known ones
    seed = _int(where, "seed", doc.get("seed", 0), 0, 2**63 - 1)
    max_games = _int(where, "max_games", doc.get("max_games", 1000), 1, MAX_GAMES)
    pilot = _int(where, "pilot_games", doc.get("pilot_games", 100), 2, MAX_GAMES)
    title = doc.get("title", f"Study of {game_id}")
    if not isinstance(title, str):
        _fail(where, "'title' must be a string")
    players = _int(where, "players", doc["players"], 1, 64) if "players" in doc else None
    agents = _agents(where, doc["agents"]) if "agents" in doc else ("heuristic",)
    items = doc.get("question")
    if not isinstance(items, list) or not items or not all(isinstance(q, dict) for q in items):
        _fail(where, "a study needs at least one [[question]]")
    if len(items) > MAX_QUESTIONS:
        _fail(where, f"at most {MAX_QUESTIONS} questions in one study, got {len(items)}")
    questions: list[Question] = []
    checked: dict[RunSpec, Any] = {}
    for i, q in enumerate(items, 1):
        qid = q.get("id", f"q{i}")
        at = f"{where}, question {qid!r}" if isinstance(qid, str) else f"{where}, question {i}"
        if not isinstance(qid, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", qid):
            _fail(at, "'id' must be a short name of letters, digits, '-', '_' or '.'")
        if any(other.id == qid for other in questions):
            _fail(at, "two questions share this id")
        bad = sorted(set(q) - QUESTION_KEYS)
        if bad:
            _fail(at, f"unknown key {bad[0]!r} (keys: {', '.join(sorted(QUESTION_KEYS))})")
        metric = q.get("metric")
        if metric not in METRICS and not (isinstance(metric, str) and metric.startswith(COUNT) and len(metric) > len(COUNT)):
            _fail(at, f"unknown metric {metric!r} (metrics: {', '.join(METRICS)}, or count:KEY for a usage counter)")
        expect = q.get("expect", "none" if metric == BALANCE else None)
        if expect not in EXPECTS:
            _fail(at, f"'expect' must be one of {', '.join(EXPECTS)}, got {expect!r}")
        if metric == BALANCE and expect != "none":
            _fail(at, "a balance question asks whether every seat is fair: expect = \"none\"")
        if metric == WINNERS and expect not in ("differs", "none"):
            _fail(at, "a winners question asks whether the distribution of winners changed: expect = \"differs\" or \"none\"")
        d = q.get("smallest_effect")
        if isinstance(d, bool) or not isinstance(d, (int, float)) or not d > 0 or not math.isfinite(d) or (metric in (WIN_RATE, BALANCE, WINNERS) and d >= 1):
            _fail(at, f"'smallest_effect' must be a positive number (a share below 1 for win rates, e.g. 0.05 for 5 points), got {d!r}")
        ask = q.get("ask", "")
        if not isinstance(ask, str):
            _fail(at, "'ask' must be a string (the question in words, e.g. the seed's own)")
        q_players = _int(at, "players", q["players"], 1, 64) if "players" in q else players
        q_agents = _agents(at, q["agents"]) if "agents" in q else agents
        for key in ("variant", "base"):
            if key in q and (not isinstance(q[key], str) or not q[key].strip()):
                _fail(at, f"'{key}' must name a variant (content edits allowed: rulebook+without:item:gloves)")
        q_max = _int(at, "max_games", q["max_games"], 1, MAX_GAMES) if "max_games" in q else None
        run = RunSpec(q.get("variant", default_variant), _options(at, "options", q.get("options", {})), q_players, q_agents,
                      _restrict(at, "restrict", q["restrict"]) if "restrict" in q else ())
        base = None
        if "base" in q or "base_options" in q or "base_agents" in q or "base_restrict" in q:
            base = RunSpec(q.get("base", q.get("variant", default_variant)), _options(at, "base_options", q.get("base_options", {})), q_players,
                           _agents(at, q["base_agents"]) if "base_agents" in q else q_agents,
                           _restrict(at, "base_restrict", q["base_restrict"]) if "base_restrict" in q else ())
            if base == run:
                _fail(at, "the base and the variant are the same games; change the variant, its options or its agents")
            if metric == BALANCE:
                _fail(at, "a balance question has no base (ask about one seat's win rate against the base instead)")
        for spec in (run, base):
            if spec is not None and spec not in checked:
                try:
                    checked[spec] = plan_run(game_id, games=1, players=spec.players, variant=spec.variant,
                                             options=dict(spec.options), agents=list(spec.agents), seed=seed,
                                             restrict={seat: list(tags) for seat, tags in spec.restrict} or None)
                except BoardlabError as exc:
                    _fail(at, str(exc))
        if metric == WINNERS and base is None:
            _fail(at, "a winners question compares the variant with a base on the same seeds: name 'base'")
        cfg = checked[run]
        who = q.get("who")
        if metric == WIN_RATE:
            if not isinstance(who, str):
                _fail(at, "a win-rate question names 'who': \"seat N\", \"first player\" or a side (e.g. \"wizard\")")
            who = who.strip().lower()
            m = re.fullmatch(r"seat (\d+)", who)
            if m and int(m.group(1)) >= cfg.players:
                _fail(at, f"there is no {who} in a {cfg.players}-player game")
        elif who is not None:
            _fail(at, f"'who' belongs to win-rate questions, not to {metric}")
        against = q.get("against")
        if against is not None:
            if base is not None or metric == BALANCE:
                _fail(at, "'against' is for a question without a base: a fixed share or target to compare with")
            if isinstance(against, bool) or not isinstance(against, (int, float, str)) or (isinstance(against, str) and against != "fair"):
                _fail(at, f"'against' must be \"fair\" or a number, got {against!r}")
            if metric == WIN_RATE and not isinstance(against, str) and not 0 < against < 1:
                _fail(at, f"'against' for a win rate is a share between 0 and 1, got {against!r}")
        if is_mean(metric) and base is None and not isinstance(against, (int, float)):
            _fail(at, f"a {metric} question without a base needs 'against', the target to compare with (e.g. against = 60)")
        questions.append(Question(qid, ask.strip(), metric, expect, float(d), run, base, who, against, q_max))
    return Study(game_id, title, seed, max_games, min(pilot, max_games), questions)


def load(path: str | Path) -> Study:
    """Read and check a study file (bounded reader; bad TOML is a one-line InvalidOptionError)."""
    import tomllib

    from boardlab.engine.files import read_text

    text = read_text(path, "study file", error=InvalidOptionError, limit=1024 * 1024)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidOptionError(f"study file {path} is not valid TOML ({exc})") from None
    study = parse(doc, f"study file {path}")
    study.path = str(path)
    return study


# -- measuring ---------------------------------------------------------------------------------------------------

def _points(r: dict[str, Any], who: str, players: int) -> tuple[float, float]:
    """(points of ``who`` in one game, its fair share): a win is 1, a draw an equal share (as in the verdict)."""
    drawn = not r["winners"] and not r.get("truncated")
    m = re.fullmatch(r"seat (\d+)", who)
    if m or who == "first player":
        seat = int(m.group(1)) if m else r["first_seat"]
        return (1.0 if seat in r["winners"] else (1.0 / players if drawn else 0.0)), 1.0 / players
    roles = sorted(set(r["roles"]))
    fair = 1.0 / len(roles)
    won = any(role.lower() == who for role in r.get("winner_roles") or [])
    return (1.0 if won else (fair if drawn else 0.0)), fair


def _check_who(q: Question, rows: Sequence[dict[str, Any]]) -> None:
    if q.metric != WIN_RATE or q.who is None or q.who == "first player" or re.fullmatch(r"seat \d+", q.who):
        return
    roles = sorted({role.lower() for r in rows for role in r["roles"]})
    if q.who not in roles:
        raise InvalidOptionError(f"question {q.id!r}: no side named {q.who!r} in these games (sides: {', '.join(roles)}; "
                                 "or \"seat N\", \"first player\")")
    if any(len(set(r.get("winner_roles") or [])) > 1 for r in rows):
        raise InvalidOptionError(f"question {q.id!r}: several sides win together in these games; ask about a seat instead")


def _check_counters(study: Study, data: dict[RunSpec, list[dict[str, Any]]]) -> None:
    """A ``count:KEY`` question's counter must be one some pilot game of the study recorded (a misspelt key would
    otherwise read as 0 in every game: several games record only the counters that happened)."""
    def keys(r: dict[str, Any]) -> Any:
        return json.loads(r["metrics"]) if isinstance(r.get("metrics"), str) else r.get("metrics") or {}

    seen = {k for rows in data.values() for r in rows for k in keys(r)}
    for q in study.questions:
        if q.metric.startswith(COUNT) and q.metric[len(COUNT):] not in seen:
            raise InvalidOptionError(f"question {q.id!r}: no game of the study's pilots recorded the usage counter "
                                     f"{q.metric[len(COUNT):]!r} (counters: {', '.join(sorted(seen)[:12])}{' ...' if len(seen) > 12 else ''})")


def alternative(q: Question) -> str:
    """The test a question asks for: one-sided for a direction (``above``: ``greater``, ``below``: ``less``),
    two-sided for ``differs`` and ``none``."""
    return {"above": "greater", "below": "less"}.get(q.expect, "two-sided")


def _test_alpha(q: Question, level: float) -> float:
    """The two-sided level whose power formulas (:mod:`.power`) give a one-sided test at ``level``."""
    return level if alternative(q) == "two-sided" else 2 * level


def _paired_values(q: Question, base_rows: Sequence[dict[str, Any]], rows: Sequence[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """The per-game values of the base and the variant over the games both played (paired by seed): the points of
    ``who`` (a seat, a side or the first player: a win 1, a draw an equal share) or a per-game mean."""
    by_seed = {r["seed"]: r for r in rows}
    pairs = [(a, by_seed[a["seed"]]) for a in base_rows if a["seed"] in by_seed]
    if q.metric == WIN_RATE:
        players = rows[0]["players"]
        return ([_points(a, q.who or "", players)[0] for a, _ in pairs], [_points(b, q.who or "", players)[0] for _, b in pairs])
    value = mean_of(q.metric)
    both = [(value(a), value(b)) for a, b in pairs]
    both = [(float(x), float(y)) for x, y in both if x is not None and y is not None]  # e.g. no leader: no decided-at
    if len(both) < 2:
        raise InvalidOptionError(f"question {q.id!r}: {q.metric} is measured in fewer than 2 paired games")
    return [x for x, _ in both], [y for _, y in both]


def measure(q: Question, rows: Sequence[dict[str, Any]], base_rows: Sequence[dict[str, Any]] | None) -> dict[str, Any]:
    """The estimate, reference, p-value and spread of one question (before the study's Holm correction).

    One procedure per kind of question, whose interval inverts its test (:mod:`boardlab.stats`): a win rate against
    a share, the score test and Wilson's interval; a mean against a target, Student's t; a variant against its base,
    the paired t-test on the per-game differences; the balance of every seat, the score tests of the family with
    Bonferroni inside the question. A question with a direction (``above``, ``below``) takes the one-sided test."""
    n = len(rows)
    players = rows[0]["players"]
    alt = alternative(q)
    if q.metric == BALANCE:
        from .metrics import roles_add_information
        from .verdict import family

        claims = family(rows, players, roles=roles_add_information(rows))
        k = len(claims)
        worst = max(claims, key=lambda c: abs(c["rate"] - c["fair"]))
        return {"kind": "balance", "n": n, "claims": [{key: c[key] for key in ("label", "k", "n", "rate", "fair", "p")} for c in claims],
                "p_value": min(1.0, min(c["p"] for c in claims) * k), "estimate": worst["rate"], "reference": worst["fair"],
                "spread": worst["fair"], "alternative": "two-sided", "test": "score tests of every seat, Bonferroni within"}
    if q.metric == WINNERS:
        assert base_rows is not None
        from .compare import seat_points, winner_test

        by_seed = {r["seed"]: r for r in rows}
        pairs = [(a, by_seed[a["seed"]]) for a in base_rows if a["seed"] in by_seed]
        r = winner_test([[seat_points(a, s, players) for s in range(players)] for a, _ in pairs],
                        [[seat_points(b, s, players) for s in range(players)] for _, b in pairs])
        m = len(pairs)
        return {"kind": "omnibus", "n": m, "p_value": r["p_value"], "estimate": r["changed_games"] / max(m, 1), "reference": 0.0,
                "changed_games": r["changed_games"], "spread": max(MIN_PSI, r["changed_games"] / max(m, 1)),
                "alternative": "two-sided", "test": "paired permutation test across all seats"}
    if q.base is not None:
        assert base_rows is not None
        a, b = _paired_values(q, base_rows, rows)
        r = paired_difference([y - x for x, y in zip(a, b)], ALPHA, alt)
        m = len(a)
        out = {"kind": "paired", "n": m, "p_value": r["p"], "estimate": r["mean"], "difference": r["mean"], "reference": 0.0,
               "sd": r["sd"], "a_only": r["a_only"], "b_only": r["b_only"], "base_value": sum(a) / m, "value": sum(b) / m,
               "alternative": alt, "test": r["test"]}
        if q.metric == WIN_RATE:
            discordant = sum(1 for x, y in zip(a, b) if x != y)
            out["spread"] = max(MIN_PSI, discordant / max(m, 1))
        else:
            out["spread"] = r["sd"] or 0.0  # the per-game standard deviation of the difference
        return out
    if q.metric == WIN_RATE:
        pts = [_points(r, q.who or "", players) for r in rows]
        fair = pts[0][1]
        ref = fair if q.against in (None, "fair") else float(q.against)  # type: ignore[arg-type]
        k = sum(p for p, _ in pts)
        p = score_test(k, n, ref, ALPHA, alt)[0]
        return {"kind": "share", "n": n, "k": k, "estimate": k / n, "reference": ref, "p_value": p, "spread": ref,
                "alternative": alt, "test": "score test"}
    values = [float(v) for v in map(mean_of(q.metric), rows) if v is not None]
    n = len(values)
    if n < 2:
        raise InvalidOptionError(f"question {q.id!r}: {q.metric} is measured in fewer than 2 games")
    ref = float(q.against)  # type: ignore[arg-type]
    r = t_test(values, ref, ALPHA, alt)
    return {"kind": "mean", "n": n, "estimate": r["mean"], "reference": ref, "p_value": r["p"], "spread": r["sd"], "sd": r["sd"],
            "alternative": alt, "test": "t-test"}


def games_needed(q: Question, m: dict[str, Any], alpha: float) -> int:
    """Games that see the question's smallest effect with 80% power at level ``alpha``, from a measure's spread."""
    d = q.smallest_effect
    a = _test_alpha(q, alpha)
    if m["kind"] == "balance":
        return games_to_see_share(d, m["spread"], alpha / len(m["claims"]))
    if m["kind"] == "share":
        return games_to_see_share(d, m["spread"], a)
    if (m["kind"] == "paired" and q.metric == WIN_RATE) or m["kind"] == "omnibus":
        return games_to_see_paired(d, m["spread"], a)  # the omnibus: as one seat's paired test, roughly
    sd = max(m["spread"], 1e-9)
    return max(1, math.ceil((z_sum(a) * sd / d) ** 2))


def _interval(q: Question, m: dict[str, Any], level: float) -> tuple[float, float, float]:
    """(detectable effect, low, high) of the effect (estimate minus reference) at level ``level``: the interval of the
    question's own test (for a direction, each end a one-sided bound at ``level``)."""
    n = m["n"]
    ref = m["reference"]
    alt = m.get("alternative", "two-sided")
    a = _test_alpha(q, level)
    if m["kind"] == "balance":
        k = len(m["claims"])
        for c in m["claims"]:
            c["lo"], c["hi"] = wilson(c["k"], c["n"], alpha=level / k)
        lo = min(c["lo"] - c["fair"] for c in m["claims"])
        hi = max(c["hi"] - c["fair"] for c in m["claims"])
        return detectable_share(n, m["spread"], level / k), lo, hi
    if m["kind"] == "share":
        _, lo, hi = score_test(m["k"], n, ref, level, alt)
        return detectable_share(n, ref, a), lo - ref, hi - ref
    if m["kind"] == "omnibus":  # a test with no interval
        return detectable_paired(n, m["spread"], a), None, None
    est = m["estimate"]
    if m["kind"] == "paired":
        lo, hi = paired_interval({**m, "mean": est}, level, alt)
    elif n < 2:
        lo, hi = min(est, ref), max(est, ref)
    else:
        lo, hi = t_interval(est, m["sd"], n, level, alt)
    if m["kind"] == "paired" and q.metric == WIN_RATE:
        return detectable_paired(n, m["spread"], a), lo, hi
    return detectable_mean(m["spread"] / math.sqrt(n), a) if n else 1.0, lo - ref, hi - ref


def decide(expect: str, lo: float, hi: float, d: float) -> str:
    """``holds``, ``does not hold`` or ``undecided``, from the effect's interval and the smallest effect ``d``."""
    if expect == "above":
        return "does not hold" if hi < d else ("holds" if lo > 0 else "undecided")
    if expect == "below":
        return "does not hold" if lo > -d else ("holds" if hi < 0 else "undecided")
    inside = -d < lo and hi < d
    excludes = lo > 0 or hi < 0
    if expect == "differs":
        return "does not hold" if inside else ("holds" if excludes else "undecided")
    return "holds" if inside else ("does not hold" if excludes else "undecided")


def _fmt(q: Question, x: float, signed: bool = False, unit: bool = True) -> str:
    """A win rate as a percentage (a difference in points), a length in turns (decisions)."""
    if q.metric in (WIN_RATE, BALANCE, WINNERS):
        return (f"{100 * x:+.1f}" + (" points" if unit else "")) if signed else f"{100 * x:.1f}%"
    name = {"turns": " turns", "decisions": " decisions", "waiting-out": " turns", "downtime": " decisions"}.get(q.metric, "") if unit else ""
    digits = 1 if q.metric in ("turns", "decisions", "waiting-out", "downtime") else 2
    return f"{x:+.{digits}f}{name}" if signed else f"{x:.{digits}f}{name}"


def _size(q: Question, x: float) -> str:
    return _fmt(q, x, True)[1:]


_WHAT = {"above": "more than", "below": "less than", "differs": "different from", "none": "the same as"}


def words(q: Question, m: dict[str, Any], family_size: int) -> str:
    """The plain-words verdict of one answered question."""
    if m["kind"] == "omnibus":
        return _omnibus_words(q, m, family_size)
    v, lo, hi, d = m["verdict"], m["lo"], m["hi"], q.smallest_effect
    alt = m.get("alternative", "two-sided")
    span = f"[{_fmt(q, lo, True, False)}, {_fmt(q, hi, True, False)}] ({level_text(m['alpha'] / len(m['claims']) if m['kind'] == 'balance' else m['alpha'], alt)})"
    p = f"p = {m['p_holm']:.2g}" if m["p_holm"] >= 0.001 else "p < 0.001"
    test = f"{'one-sided ' if alt != 'two-sided' else ''}{m.get('test', 'test')}"
    holm = f"{p}, {test}, after Holm's correction across the study's {family_size} questions"
    rejected = m.get("rejected", False)
    if m["kind"] == "balance":
        worst = max(m["claims"], key=lambda c: abs(c["rate"] - c["fair"]))
        what = (f"every seat (side) and the first player are within {span} of their fair shares, in points, over {m['n']} games; "
                f"the furthest, {worst['label'][0].lower() + worst['label'][1:]}, "
                f"wins {100 * worst['rate']:.1f}% against {100 * worst['fair']:.0f}%")
    elif m["kind"] == "paired":
        what = (f"{q.who + ' wins ' if q.who else 'mean ' + q.metric + ' '}"
                f"{_fmt(q, m['base_value'], unit=False)} with the base, {_fmt(q, m['value'], unit=False)} with the variant: "
                f"{_fmt(q, m['estimate'], True)} {span} over {m['n']} paired games")
    else:
        ref = f"{'a fair ' if q.against in (None, 'fair') and q.metric == WIN_RATE else 'a target of '}{_fmt(q, m['reference'])}"
        what = (f"{q.who + ' wins ' if q.metric == WIN_RATE else 'mean ' + q.metric + ' '}{_fmt(q, m['estimate'], unit=False)} against {ref}: "
                f"{_fmt(q, m['estimate'] - m['reference'], True)} {span} over {m['n']} games")
    if v == "holds":
        if q.expect != "none":
            why = f"the effect is {_WHAT[q.expect]} zero beyond chance"
            if (q.expect == "above" and lo >= d) or (q.expect == "below" and hi <= -d) or (q.expect == "differs" and (lo >= d or hi <= -d)):
                why += f", and at least the {_size(q, d)} that matter"
        elif rejected:
            why = f"there is an effect beyond chance, but it is smaller than the {_size(q, d)} that matter"
        else:
            why = f"any effect is smaller than the {_size(q, d)} that matter"
        return f"Holds: {what} ({holm}); {why}."
    if v == "does not hold":
        if q.expect in ("above", "below", "differs") and not (lo > 0 or hi < 0):
            why = f"any effect in that direction is smaller than the {_size(q, d)} that matter"
        elif q.expect in ("above", "below"):
            direction = "above" if lo > 0 else "below"
            why = (f"the effect is {direction} zero" + ("" if direction != q.expect else f" but smaller than the {_size(q, d)} that matter"))
        elif q.expect == "differs":
            why = (f"the effect differs from zero beyond chance but is smaller than the {_size(q, d)} that matter" if rejected
                   else f"any effect is smaller than the {_size(q, d)} that matter")
        elif m["kind"] == "balance":
            names = [u[0].lower() + u[1:] if u.startswith("The ") else u for u in m["unfair"]]
            why = f"{' and '.join(names)} {'differs' if len(m['unfair']) == 1 else 'differ'} from the fair share beyond chance"
        elif lo >= d or hi <= -d:
            why = f"there is an effect beyond chance, at least the {_size(q, d)} that matter"
        else:
            why = f"there is an effect beyond chance (it may be smaller than the {_size(q, d)} that matter)"
        return f"Does not hold: {what} ({holm}); {why}."
    more = f"; about {m['games_to_see']:,} games would see {_size(q, d)}" if m["games_to_see"] > m["n"] else ""
    return (f"Undecided: {what} ({holm}); the run could see an effect of {_size(q, m['detectable'])} "
            f"(80% power at its Holm level), and the smallest that matters is {_size(q, d)}{more}.")


def _omnibus_words(q: Question, m: dict[str, Any], family_size: int) -> str:
    p = f"p = {m['p_holm']:.2g}" if m["p_holm"] >= 0.001 else "p < 0.001"
    what = (f"who scores differs between the base and the variant in {m['changed_games']} of {m['n']} paired games ({p}, "
            f"{m['test']}, after Holm's correction across the study's {family_size} questions; a test with no interval)")
    if m["rejected"]:
        return f"{'Holds' if q.expect == 'differs' else 'Does not hold'}: {what}; the distribution of winners changed beyond chance."
    return (f"Undecided: {what}; no change is seen, and a test alone cannot show there is none: ask of each seat's win rate "
            f"to bound the change (the run could see a shift of about {_size(q, m['detectable'])} in one seat).")


def answer(study: Study, data: dict[RunSpec, Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Every question's measure, Holm-corrected as one family; adds the interval, verdict and words to each."""
    from boardlab.stats import holm_levels

    measures = []
    for q in study.questions:
        rows = data[q.run]
        _check_who(q, rows)
        measures.append(measure(q, rows, data[q.base] if q.base is not None else None))
    k = len(measures)
    reject, adjusted, levels = holm_levels([m["p_value"] for m in measures], ALPHA)
    out = []
    for q, m, rej, p, level in zip(study.questions, measures, reject, adjusted, levels):
        m["p_holm"], m["rejected"], m["alpha"] = p, bool(rej), level
        m["detectable"], m["lo"], m["hi"] = _interval(q, m, m["alpha"])
        if m["kind"] == "balance":  # unfair when any claim's interval excludes its fair share (Bonferroni within)
            unfair = [c for c in m["claims"] if c["lo"] > c["fair"] or c["hi"] < c["fair"]]
            m["unfair"] = [c["label"] for c in unfair]
            inside = -q.smallest_effect < m["lo"] and m["hi"] < q.smallest_effect
            m["verdict"] = "holds" if inside else ("does not hold" if unfair else "undecided")
        elif m["kind"] == "omnibus":  # a test alone: it can show a change, never that there is none
            m["verdict"] = ("holds" if q.expect == "differs" else "does not hold") if m["rejected"] else "undecided"
        else:
            m["verdict"] = decide(q.expect, m["lo"], m["hi"], q.smallest_effect)
        m["games_to_see"] = games_needed(q, m, m["alpha"])
        m["words"] = words(q, m, k)
        q.result = m
        out.append({"id": q.id, "ask": q.ask, "metric": q.metric, "who": q.who, "expect": q.expect,
                    "smallest_effect": q.smallest_effect, "variant": q.run.label(),
                    "base": q.base.label() if q.base else None, **{key: v for key, v in m.items() if key != "distribution"}})
    return out


# -- running -----------------------------------------------------------------------------------------------------

def _config(study: Study, spec: RunSpec, games: int) -> Any:
    from .run import plan_run

    return plan_run(study.game, games=games, players=spec.players, variant=spec.variant, options=dict(spec.options),
                    agents=list(spec.agents), seed=study.seed, restrict={seat: list(tags) for seat, tags in spec.restrict} or None)


def _open(study: Study, spec: RunSpec, games: int, folder: Path, jobs: int | None) -> tuple[Any, Any, dict[str, Any]]:
    """The run folder of ``spec`` holding at least ``games`` games' configuration (grown if smaller), its config and
    manifest. Growing keeps the games played: game i's seed depends only on the run seed and i."""
    from .run import manifest_for
    from .simulate import default_jobs
    from .store import RunDir

    cfg = _config(study, spec, games)
    run = RunDir(folder)
    if not run.exists():
        manifest = manifest_for(cfg, "local", jobs or default_jobs())
        run.write_manifest(manifest)
        return run, cfg, manifest
    manifest = run.read_manifest()
    old = dict(manifest.get("config") or {})
    if {**old, "games": 0} != {**cfg.to_json(), "games": 0}:
        raise BoardlabError(f"{folder} holds a different run; choose another --out folder")
    if int(old.get("games", 0)) >= games:
        return run, _config(study, spec, int(old["games"])), manifest
    manifest = {**manifest, "config": cfg.to_json(), "complete": False}
    run.write_manifest(manifest)
    return run, cfg, manifest


def _pilot(study: Study, spec: RunSpec, games: int, folder: Path, jobs: int | None) -> list[dict[str, Any]]:
    """At least ``games`` games of ``spec`` (the parts of the run folder, without its report: the run may grow)."""
    from .simulate import default_jobs, iter_missing, run_local

    run, cfg, _ = _open(study, spec, games, folder, jobs)
    rows = run.read_parts()
    missing = iter_missing(games, {r["index"] for r in rows})
    if missing:
        run_local(cfg, missing, jobs or default_jobs(), run.write_part)
        rows = run.read_parts()
    return rows


def _finish(study: Study, spec: RunSpec, games: int, folder: Path, jobs: int | None) -> list[dict[str, Any]]:
    """Grow the run of ``spec`` to ``games`` games and finish it as a playtest run (results.parquet, report.html)."""
    from .run import execute

    run, cfg, manifest = _open(study, spec, games, folder, jobs)
    if not (manifest.get("complete") and run.results_path.exists()):
        execute(cfg, folder, jobs=jobs)
    return run.read_results()


def slug(spec: RunSpec, index: int) -> str:
    return f"run{index}-" + re.sub(r"[^A-Za-z0-9_.+-]+", "_", spec.variant or "default")[:60]


def run_study(study: Study, out: str | Path, *, jobs: int | None = None, max_games: int | None = None,
              log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play every run of ``study`` (a pilot, then as many games as its questions need) and answer every question.

    Writes ``study.json`` (the answers and the runs) and ``study.html`` into ``out``; returns the JSON document."""
    out = Path(out)
    cap = max_games or study.max_games
    pilot = min(study.pilot_games, cap)
    say = log or (lambda _msg: None)
    runs = study.runs()
    folders = {spec: out / "runs" / slug(spec, i) for i, spec in enumerate(runs)}
    data: dict[RunSpec, list[dict[str, Any]]] = {}
    sides = [q for q in study.questions if q.metric == WIN_RATE and q.who != "first player" and not re.fullmatch(r"seat \d+", q.who or "")]
    if sides:  # a side's name is known once a game has set up: check it on one game before playing many
        from .simulate import play_row

        first = {spec: [play_row(_config(study, spec, 1), 0)] for spec in {q.run for q in sides}}
        for q in sides:
            _check_who(q, first[q.run])
    def q_cap(q: Question) -> int:
        return min(cap, q.max_games or cap)

    run_cap = {spec: max(q_cap(q) for q in study.questions if spec in (q.run, q.base)) for spec in runs}
    for spec in runs:
        say(f"pilot: {min(pilot, run_cap[spec])} games of {spec.label()}")
        first = min(pilot, run_cap[spec])
        # the plan reads the pilot's games only, so a resumed (or repeated) study makes the plan a fresh one made
        data[spec] = sorted((r for r in _pilot(study, spec, first, folders[spec], jobs) if r["index"] < first), key=lambda r: r["index"])
    _check_counters(study, data)
    alpha_plan = ALPHA / len(study.questions)
    need = {spec: len(data[spec]) for spec in runs}
    plan = []
    for q in study.questions:
        _check_who(q, data[q.run])
        m = measure(q, data[q.run], data[q.base] if q.base is not None else None)
        n = min(q_cap(q), max(pilot, games_needed(q, m, alpha_plan)))
        plan.append({"id": q.id, "games": n, "capped": games_needed(q, m, alpha_plan) > q_cap(q)})
        for spec in (q.run, q.base):
            if spec is not None:
                need[spec] = max(need[spec], n)
    for spec in runs:
        if need[spec] > len(data[spec]):
            say(f"playing {spec.label()} to {need[spec]} games")
        # a folder grown by an earlier, larger study keeps its games; this study answers with the ones it planned
        data[spec] = [r for r in _finish(study, spec, need[spec], folders[spec], jobs) if r["index"] < need[spec]]
    answers = answer(study, data)
    doc = {"study": study.path, "title": study.title, "game": study.game, "seed": study.seed, "max_games": cap,
           "pilot_games": pilot, "alpha_plan": alpha_plan, "plan": plan,
           "runs": [{"label": s.label(), "folder": str(folders[s]), "games": len(data[s]),
                     "report": (folders[s] / "report.html").relative_to(out).as_posix()} for s in runs],
           "questions": answers}
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / "study.json", json.dumps(doc, indent=2, sort_keys=True, default=float), "study answers",
                 error=BoardlabError)
    write_html(doc, out / "study.html")
    atomic_write(out / "study.md", markdown(doc), "study answers", error=BoardlabError)
    return doc


def markdown(doc: dict[str, Any]) -> str:
    """The answers as a Markdown table (the question in the seed's words, the simulation's answer, the verdict):
    the shape of a findings page's "the seed says" table, so a page can embed a study's output as it stands."""
    def cell(text: str) -> str:
        return " ".join(str(text).split()).replace("|", "\\|")

    lines = [f"<!-- written by: boardlab study {doc['study']} (seed {doc['seed']}, at most {doc['max_games']} games a run) -->", "",
             "| the seed says | the simulation | verdict |", "| --- | --- | --- |"]
    for a in doc["questions"]:
        lines.append(f"| {cell(a['ask'] or a['id'])} | {cell(a['words'].split(': ', 1)[1])} | **{a['verdict']}** |")
    return "\n".join(lines) + "\n"


def write_html(doc: dict[str, Any], path: Path) -> Path:
    """One self-contained HTML page: a verdict per question, in plain words, with its interval."""
    import html

    e = html.escape
    rows = []
    for a in doc["questions"]:
        cls = {"holds": "holds", "does not hold": "fails"}.get(a["verdict"], "undecided")
        rows.append(f"<tr class=\"{cls}\"><td>{e(a['id'])}</td><td>{e(a['verdict'])}</td><td>{a['n']}</td>"
                    f"<td>{a['p_holm']:.2g}</td></tr>")
    sections = []
    for a in doc["questions"]:
        base = f"<br>Base: <code>{e(a['base'])}</code>" if a["base"] else ""
        sections.append(f"<section id=\"q-{e(a['id'])}\"><h3>{e(a['id'])}</h3>"
                        + (f"<blockquote>{e(a['ask'])}</blockquote>" if a["ask"] else "")
                        + f"<p>Metric: <code>{e(a['metric'])}</code>{' of ' + e(a['who']) if a['who'] else ''}, expected "
                        f"<code>{e(a['expect'])}</code>, smallest effect that matters {a['smallest_effect']:g}."
                        f"<br>Variant: <code>{e(a['variant'])}</code>{base}</p>"
                        f"<p class=\"verdict\">{e(a['words'])}</p></section>")
    runs = "".join(f"<li><code>{e(r['label'])}</code>: {r['games']} games, <a href=\"{e(r['report'])}\">its report</a> "
                   f"(<code>{e(r['folder'])}</code>)</li>" for r in doc["runs"])
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(doc['title'])}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }}
tr.holds td:nth-child(2) {{ color: #1a6b2a; }} tr.fails td:nth-child(2) {{ color: #a31f1f; }}
tr.undecided td:nth-child(2) {{ color: #7a5c00; }} blockquote {{ color: #555; font-style: italic; }}
</style></head><body>
<h1>{e(doc['title'])}</h1>
<p>Game <code>{e(doc['game'])}</code>, seed {doc['seed']}: every run plays the same seeds, so game <i>i</i> of two runs is paired.
Each run played a pilot of {doc['pilot_games']} games, then as many as its questions need to see their smallest effect with 80% power
at level 0.05/{len(doc['questions'])} (at most {doc['max_games']:,} games).
The {len(doc['questions'])} questions are one family: p-values are Holm-corrected across all of them, and each interval is taken at the
level of the Holm step that decided its question.</p>
<h2>Verdicts</h2>
<table><thead><tr><th>question</th><th>verdict</th><th>games</th><th>p (Holm)</th></tr></thead><tbody>{''.join(rows)}</tbody></table>
{''.join(sections)}
<h2>Runs</h2><ul>{runs}</ul>
</body></html>
"""
    atomic_write(path, page, "study report", error=BoardlabError)
    return path
