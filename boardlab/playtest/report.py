"""Reports: a self-contained HTML page with plots, and a Markdown summary for the terminal.

The HTML embeds its plots as inline SVG made by matplotlib (Agg backend), so
it opens anywhere with no internet access.
"""

from __future__ import annotations

import html
import io
import json
from pathlib import Path
from typing import Any, Sequence

from boardlab.stats import level_text


def _fig_svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    text = buf.getvalue()
    return text[text.find("<svg"):]


def _bar_with_ci(labels: Sequence[str], rates: Sequence[dict[str, float]], title: str, fair: float | None = None) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2))
    vals = [r["rate"] for r in rates]
    lo = [max(0.0, r["rate"] - r["ci_low"]) for r in rates]
    hi = [max(0.0, r["ci_high"] - r["rate"]) for r in rates]
    ax.bar(range(len(vals)), vals, yerr=[lo, hi], capsize=6, color="#3b6ea8")
    ax.set_xticks(range(len(vals)), labels, rotation=15 if max((len(x) for x in labels), default=0) > 8 else 0, ha="right" if max((len(x) for x in labels), default=0) > 8 else "center")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(title)
    if fair is not None:
        ax.axhline(fair, color="#c0392b", linestyle="--", linewidth=1, label="fair share")
        ax.legend(loc="upper right")
    return _fig_svg(fig)


def _histogram(values: Sequence[float], title: str, xlabel: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.hist(list(values), bins=min(30, max(5, len(set(values)))), color="#5a9f68")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    return _fig_svg(fig)


def _usage_plot(usage: Sequence[dict[str, Any]], kinds: dict[str, str] | None = None, top: int = 25) -> str | None:
    """Contributions with their 95% intervals; choices first, events (consequences of play) greyed and labelled."""
    kinds = kinds or {}
    rows = [u for u in usage if u["delta"] is not None]
    if not rows:
        return None
    rows = sorted(rows, key=lambda u: (kinds.get(u["key"]) == "event", -abs(u["delta"])))[:top]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 0.3 * len(rows) + 1.4))
    ys = list(range(len(rows)))
    deltas = [u["delta"] for u in rows]
    cis = [u.get("delta_ci") or [u["delta"], u["delta"]] for u in rows]
    err = [[max(0.0, d - c[0]) for d, c in zip(deltas, cis)], [max(0.0, c[1] - d) for d, c in zip(deltas, cis)]]
    colors = ["#bbbbbb" if kinds.get(u["key"]) == "event" else ("#3b6ea8" if u["delta"] >= 0 else "#c0392b") for u in rows]
    ax.barh(ys, deltas, xerr=err, capsize=3, color=colors)
    labels = [u["key"] + ("  (event)" if kinds.get(u["key"]) == "event" else "") + (" *" if u.get("significant") else "") for u in rows]
    ax.set_yticks(ys, labels)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("win rate when used minus when not used (Newcombe interval at each key's Holm level; * significant)")
    ax.set_title("Contributions (grey: events, consequences of play, not choices)")
    return _fig_svg(fig)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def heading(cfg: dict[str, Any]) -> str:
    """``game (variant, N players; option=value, ...)``: names every rule value that differs from the variant's."""
    opts = "; " + ", ".join(f"{k}={v}" for k, v in sorted((cfg.get("options") or {}).items())) if cfg.get("options") else ""
    restrict = cfg.get("restrict") or {}
    rest = "; " + "; ".join(f"seat {k} never {', '.join(v if isinstance(v, list) else [v])}" for k, v in sorted(restrict.items())) if restrict else ""
    return f"{cfg['game']} ({cfg['variant']}, {cfg['players']} players{opts}{rest})"


def engine_text(manifest: dict[str, Any]) -> str:
    """Which engine played the run's last session, in words (runs made before the core say nothing)."""
    eng = manifest.get("engine")
    if not eng:
        return "the Python rules (recorded before engines were recorded)"
    if eng.get("engine") == "core":
        return f"the compiled core {eng.get('core_version', '')} ({eng.get('reason', '')}); the results are the same as the Python rules give"
    return f"the Python rules ({eng.get('reason', '')})"


def markdown_summary(manifest: dict[str, Any], result: dict[str, Any]) -> str:
    """A short Markdown summary of a run (printed to the terminal): the verdict first, then the figures."""
    cfg = manifest["config"]
    lines = [
        f"# Playtest: {heading(cfg)}",
        "",
        f"{result['games']} games, seed {cfg['seed']}, agents: {', '.join(cfg['agents'])}",
        "",
        f"Engine: {engine_text(manifest)}",
        "",
    ]
    if result.get("verdict"):
        lines += ["## Verdict", ""] + [f"- {v}" for v in result["verdict"]] + ["", "## Figures", ""]
    lines += [
        "| seat | win rate (a draw: an equal share) | 95% CI |",
        "| --- | --- | --- |",
    ]
    for s, r in enumerate(result["win_by_seat"]):
        lines.append(f"| {s} | {_pct(r['rate'])} | {_pct(r['ci_low'])} - {_pct(r['ci_high'])} |")
    if result.get("roles_add_information"):
        lines += ["", "| role | win rate (a draw: an equal share) | 95% CI |", "| --- | --- | --- |"]
        for role, r in result["win_by_role"].items():
            lines.append(f"| {role} | {_pct(r['rate'])} | {_pct(r['ci_low'])} - {_pct(r['ci_high'])} |")
    comp = result["completion"]
    fpa = result["first_player_advantage"]
    lines += [
        "",
        f"- balance (1 - largest seat gap): {result['balance']:.3f}",
        f"- {'first-player advantage (the seat that acted first)' if fpa.get('measures') == 'first to act' else 'seat 0 advantage (who acted first was not recorded)'}: {100 * fpa['advantage']:+.1f} points (95% interval {100 * fpa['ci_low']:+.1f} to {100 * fpa['ci_high']:+.1f})",
        f"- truncated: {comp['truncated']} of {comp['games']} ({_pct(comp['truncated_rate'])}); no winner: {comp['no_winner']}",
        f"- length: {result['turns']['mean']:.1f} turns on average (median {result['turns']['median']:.0f}), {result['decisions']['mean']:.1f} decisions",
        f"- choice points per game: {result['choice_points']['mean']:.1f}; mean branching factor: {result['branching']['mean']:.2f}",
        f"- lead changes per game: {result['lead_changes']['mean']:.2f}; closeness: {result['closeness']['mean']:.3f}",
    ]
    usage = [u for u in result["usage"] if u["delta"] is not None]
    kinds = result.get("usage_kinds") or {}
    exp = experience_lines(result.get("experience"), cfg["players"])
    if usage:
        lines += ["", "Largest contributions (win rate used - not used, Newcombe's interval at each key's Holm level, printed "
                  "beside it; * = significant after Holm, exactly when the interval excludes zero):", ""]
        for u in sorted(usage, key=lambda u: (kinds.get(u["key"]) != "choice", -abs(u["delta"])))[:8]:
            ci = u.get("delta_ci") or [float("nan"), float("nan")]
            note = {"event": " (event: a consequence of play, not a choice)",
                    "content": f" (content: drawn, not chosen; test it with --variant {cfg['variant']}+without:{u['key']})"}.get(kinds.get(u["key"]), "")
            lines.append(f"- `{u['key']}`: {100 * u['delta']:+.1f} points [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}] ({level_text(u.get('alpha', 0.05))})"
                         f"{'*' if u.get('significant') else ''}"
                         f" ({u['occurrences']} uses){note}")
    from .sections import luck_lines, skill_lines

    lines += ["", "## Experience", ""] + exp + luck_lines(result.get("luck"))
    if result.get("skill_check"):
        lines += ["", "## Skill check", ""] + skill_lines(result["skill_check"])
    return "\n".join(lines) + "\n"


def _mean(x: dict[str, float], digits: int = 1, scale: float = 1.0, unit: str = "") -> str:
    return f"{scale * x['mean']:.{digits}f}{unit} [{scale * x['ci_low']:.{digits}f}, {scale * x['ci_high']:.{digits}f}]"


def experience_lines(exp: dict[str, Any] | None, players: int) -> list[str]:
    """The Experience section's bullets (formulas in docs/playtest.md "Experience"), each with its 95% interval."""
    if not exp or not exp.get("recorded"):
        lines = ["- downtime, waiting while out, decided early, kingmaking: not recorded (this run predates them; rerun it to measure them)"]
        if exp:
            lines.append(f"- lead changes per game: {_mean(exp['lead_changes'], 2)}; closeness: {_mean(exp['closeness'], 3)}")
        return lines
    by_seat = ", ".join(f"seat {s} {x['mean']:.1f}" for s, x in enumerate(exp["downtime_by_seat"]))
    out_seat = ", ".join(f"seat {s} {x['mean']:.2f}" for s, x in enumerate(exp["waiting_out_by_seat"]))
    wo = exp["waiting_out_games"]
    lines = [
        "95% intervals in brackets; means over games.",
        "",
        f"- downtime (others' decisions between a seat's own): {_mean(exp['downtime'])} on average, longest wait {_mean(exp['downtime_max'])} per game ({by_seat})",
        f"- waiting while out (turns beyond a round with no decision while others play): {_mean(exp['waiting_out'], 2)} per seat per game, "
        f"most {_mean(exp['waiting_out_max'], 2)}; some seat waited in {_pct(wo['rate'])} of games [{_pct(wo['ci_low'])}, {_pct(wo['ci_high'])}] ({out_seat})",
    ]
    d = exp["decided_at"]
    if d["n"]:
        lines.append(f"- decided at (the winner leads from then to the end): {_mean(d, 0, 100, '%')} of the game's turns ({d['n']} games with a winner)")
    else:
        lines.append("- decided at: no game had a winner")
    k = exp.get("kingmaking")
    if players <= 2 or k is None:
        lines.append("- kingmaking: not applicable with two players")
    elif k["n"]:
        lines.append(f"- kingmaking (a strictly last non-winner's turn hands the lead to the winner): in {_pct(k['rate'])} of games [{_pct(k['ci_low'])}, {_pct(k['ci_high'])}] ({k['n']} games with a winner)")
    else:
        lines.append("- kingmaking: no game had a winner")
    lines.append(f"- lead changes per game: {_mean(exp['lead_changes'], 2)}; closeness: {_mean(exp['closeness'], 3)}")
    return lines


def write_report(folder: str | Path, manifest: dict[str, Any], result: dict[str, Any], rows: Sequence[dict[str, Any]]) -> Path:
    """Write ``report.html`` (and ``summary.json``, ``summary.md``) into the run folder."""
    folder = Path(folder)
    cfg = manifest["config"]
    players = cfg["players"]
    if "luck" not in result and (folder / "luck.json").exists():  # measured by an earlier --luck-games
        result["luck"] = json.loads((folder / "luck.json").read_text(encoding="utf-8"))
    plots = [
        ("Win rate by seat", _bar_with_ci([f"seat {i}" for i in range(players)], result["win_by_seat"], "Win rate by seat", 1 / players)),
    ]
    roles = result["win_by_role"]
    if result.get("roles_add_information"):
        plots.append(("Win rate by role", _bar_with_ci(list(roles), list(roles.values()), "Win rate by side or role")))
    plots.append(("Game length", _histogram([r["turns"] for r in rows], "Game length", "turns")))
    plots.append(("Decisions", _histogram([r["decisions"] for r in rows], "Decisions per game", "decisions")))
    decided = [r["decided_at"] for r in rows if r.get("decided_at") is not None]
    if decided:
        plots.append(("Decided at", _histogram(decided, "When the winner took the lead for good", "share of the game's turns")))
    kinds = result.get("usage_kinds") or {}
    usage_svg = _usage_plot(result["usage"], kinds)
    if usage_svg:
        plots.append(("Contributions", usage_svg))
    def delta(u: dict[str, Any]) -> str:
        if u["delta"] is None:
            return ""
        lo, hi = u.get("delta_ci") or (u["delta"], u["delta"])
        return f"{100 * u['delta']:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] ({level_text(u.get('alpha', 0.05))})"

    def holm_p(u: dict[str, Any]) -> str:
        return "" if u.get("p_holm") is None else f"{u['p_holm']:.2g}" + (" *" if u.get("significant") else "")

    def kind(u: dict[str, Any]) -> str:
        k = kinds.get(u["key"], "")
        return {"event": "event (consequence of play)", "content": "content (drawn, not chosen)"}.get(k, k)

    def _used(u: dict[str, Any]) -> str:
        if not u.get("games_with"):
            return "never used"  # not "0.0% (0.0%-100.0%)": no game to measure
        return f"{_pct(u['win_used'])} ({_pct(u['win_used_ci'][0])}-{_pct(u['win_used_ci'][1])}, 95% interval)"

    usage_rows = "".join(
        f"<tr><td><code>{html.escape(u['key'])}</code></td><td>{html.escape(kind(u))}</td><td>{u['occurrences']}</td><td>{u['games_with']}</td>"
        f"<td>{_used(u)}</td>"
        f"<td>{_pct(u['win_unused'])}</td><td>{delta(u)}</td><td>{holm_p(u)}</td>"
        f"<td>{html.escape(', '.join(u.get('within_roles') or []))}</td></tr>"
        for u in sorted(result["usage"], key=lambda u: (kinds.get(u["key"]) == "event", u["key"]))
    )
    md = markdown_summary(manifest, result)
    from markdown_it import MarkdownIt

    summary_html = MarkdownIt("commonmark", {"html": False}).enable("table").render(md.split("\n", 3)[3])
    body = "".join(f"<section><h2>{html.escape(t)}</h2>{svg}</section>" for t, svg in plots)
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>boardlab playtest: {html.escape(cfg['game'])}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }}
h1 {{ font-size: 1.6em; }} section {{ margin: 1.5em 0; }} svg {{ max-width: 100%; height: auto; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }}
pre {{ background: #f6f6f6; padding: 1em; overflow-x: auto; }}
</style></head><body>
<h1>Playtest report: {html.escape(heading(cfg))}</h1>
<p>Variant <b>{html.escape(cfg['variant'])}</b>, {players} players, {result['games']} games, seed {cfg['seed']},
agents {html.escape(', '.join(cfg['agents']))}. boardlab {html.escape(manifest['boardlab_version'])}.
Engine: {html.escape(engine_text(manifest))}.</p>
<div id="summary">{summary_html}</div>
{body}
<section><h2>Cards, tokens and rules</h2>
<p>Win rate of seats that used each key minus those that did not, with Newcombe's interval and the p-value that
inverts it, after Holm's correction across all keys (* = significant); each interval is taken at the level of the
Holm step that decided its key, printed beside it, so a key is significant exactly when its interval excludes zero. <b>Events</b> are things that happen in play
(a fight won, a respawn): their correlation with winning is a consequence of how the game went, not a reason to
change a rule. <b>Choices</b> are tags of actions a player takes; their correlation is still not a cause: restricted
play (<code>--restrict SEAT=TAG</code>) measures the effect. Keys only some roles use are compared within those roles.</p>
<table><tr><th>key</th><th>kind</th><th>uses</th><th>games</th><th>win when used</th><th>win when not</th><th>delta (points, interval at its level)</th><th>p (Holm)</th><th>compared within</th></tr>
{usage_rows}</table></section>
<section><h2>Configuration</h2><pre>{html.escape(json.dumps(manifest, indent=2, sort_keys=True))}</pre></section>
</body></html>
"""
    from boardlab.engine.errors import BoardlabError
    from boardlab.engine.files import atomic_write

    atomic_write(folder / "report.html", page, "report", error=BoardlabError)
    atomic_write(folder / "summary.json", json.dumps(result, indent=2, sort_keys=True), "summary", error=BoardlabError)
    atomic_write(folder / "summary.md", md, "summary", error=BoardlabError)
    return folder / "report.html"
