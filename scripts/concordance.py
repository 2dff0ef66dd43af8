#!/usr/bin/env python
"""The seed concordance: every sentence of every seed, traced to code, ledger, content or "not a rule".

Each game has ``docs/rules/<game>.concordance.csv``. A row covers one sentence or a run of consecutive
sentences of the game's seed document and says what they are. This script checks the files against the
seeds and the code, prints coverage per game, and renders each file as a table into the game's rules
document (between the ``<!-- concordance:begin -->`` and ``<!-- concordance:end -->`` markers).

    python scripts/concordance.py              # check every game, print coverage (exit 1 on a problem)
    python scripts/concordance.py --write      # also re-render the tables in docs/rules/<game>.md
    python scripts/concordance.py --game armies --sentences 40-42   # print numbered sentences of a seed

The seeds live in ``../shared/seeds/`` beside the checkout (``BOARDLAB_SEEDS`` overrides). Where they are
absent, as on a user's fresh clone, the seeds' check prints a one-line reason and is skipped (exit 0).

A designer's own game (``boardlab new-game``) has no seed: its rules text, as the designer wrote it, is
``docs/rules/<game>.rulebook.txt`` in the repository, and its concordance traces that file's sentences the
same way. Every ``docs/rules/*.rulebook.txt`` is a game to check (see :func:`all_games`), with or without the
seeds.

Sentence numbering
------------------
A seed line ``L`` (1-based, as ``sed -n Lp`` counts) is split into sentences ``L.1``, ``L.2``, ... by one
simple rule: a sentence ends at ``.``, ``!`` or ``?`` (optionally followed by a closing quote or bracket)
that is followed by whitespace. Two exceptions keep obvious non-ends together: a piece that is only a list
marker (``1.``, ``a.``, ``iv.``, ``(2)``) joins the next piece, and so does a piece ending in one of the
abbreviations in :data:`ABBREVIATIONS` (``i.e.``, ``e.g.``, ...). A blank line has no sentence.

The CSV columns
---------------
``id``       the first sentence, ``L.S``, with an optional letter suffix when a sentence holds two rules
             (``12.3``, ``12.3b``). The row's full id, used by test markers, is ``<game>:<id>``.
``to``       the last sentence of the run (empty: the row covers only ``id``'s sentence).
``kind``     ``rule``, ``ledger``, ``content``, ``not-a-rule`` or ``duplicate``.
``versions`` for a ``rule`` row: the variants the rule belongs to, ``;``-separated, or ``all``.
``quote``    a few words that appear in the covered sentences (compared case- and whitespace-insensitively).
``ref``      ``rule``: ``module:qualname`` references, ``;``-separated, each must resolve;
             ``ledger``: ledger entries of ``docs/rules/<game>.md`` (a number ``14`` or a bold title);
             ``content``: repository-relative data files, each must exist;
             ``not-a-rule``: a one-word reason (story, history, heading, opinion, playtest, credits, ...);
             ``duplicate``: the line range ``A-B`` of the first copy; the covered lines must equal it.
``note``     free text; a ``not-a-rule`` playtest note names the docs/findings row that tests it.
``property`` (optional column) for a ``rule`` or ``ledger`` row whose sentence makes nothing always true:
             ``none:<word>`` (``none:procedural``, ``none:choice``, ``none:setup-once`` ...). Rows that *do*
             make something always true are named by the game's rule properties instead
             (``boardlab/games/<game>/properties.py``, each property's ``rows=``; see
             :mod:`boardlab.engine.properties`), so the column stays empty for them.

The report counts, per game, the ``rule`` rows that a property checks (``prop``), those marked
``none:`` (``none``) and those with neither (``no-prop``), and the ``ledger`` rows that are the only
row of their sentences (``ledger-only``: a sentence that states a rule wants a ``rule`` row too, with
code and a test, beside the ledger row that records the reading).

A ``rule`` row needs at least one test marked ``@pytest.mark.seed("<game>:<id>")`` (several ids may be
given in one mark); every mark must name an existing row.
"""

from __future__ import annotations

import argparse
import ast
import csv
import importlib
import io
import os
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: game id -> seed file (``shared/seeds/README.md``); Armies uses the plain-text extraction.
SEED_FILES: dict[str, str] = {
    "blackfire": "000_de3e87ca33c17c6f.txt",
    "wizards-labyrinth": "001_73928e620b8cc8c4.txt",
    "armies": "002_309a0e874664b9b0.text.md",
    "dungeons-jewel": "003_fc897c8c6df682b9.txt",
    "summoners-quest": "004_4db311c4874447dd.txt",
}

KINDS = ("rule", "ledger", "content", "not-a-rule", "duplicate")
COLUMNS = ("id", "to", "kind", "versions", "quote", "ref", "note")
OPTIONAL_COLUMNS = ("property",)
_NONE_PROPERTY = re.compile(r"none:[a-z][a-z0-9-]*")
ABBREVIATIONS = ("i.e.", "e.g.", "etc.", "vs.", "approx.", "mr.", "mrs.", "dr.", "st.", "no.")
_END = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"'\u201d\u2019)\]])\s+")
_LIST_MARKER = re.compile(r"\(?(?:\d+|[A-Za-z]|[ivxlcdm]+)[.)]", re.IGNORECASE)
_SENTENCE_ID = re.compile(r"(\d+)\.(\d+)([a-z]?)")
BEGIN, END = "<!-- concordance:begin -->", "<!-- concordance:end -->"


def seeds_dir() -> Path:
    env = os.environ.get("BOARDLAB_SEEDS")
    return Path(env) if env else ROOT.parent / "shared" / "seeds"


def rules_text_path(game: str, root: Path | None = None) -> Path:
    """The rules text a game's concordance covers: its seed (``SEED_FILES``, in ``root`` or the seeds
    folder) or, for a designer's own game, ``docs/rules/<game>.rulebook.txt``."""
    if game in SEED_FILES:
        return (root or seeds_dir()) / SEED_FILES[game]
    return ROOT / "docs" / "rules" / f"{game}.rulebook.txt"


def own_games() -> list[str]:
    """Designers' own games: those with a ``docs/rules/<game>.rulebook.txt`` (and no seed)."""
    return sorted(p.name[: -len(".rulebook.txt")] for p in (ROOT / "docs" / "rules").glob("*.rulebook.txt")
                  if p.name[: -len(".rulebook.txt")] not in SEED_FILES)


def all_games() -> list[str]:
    """Every game with a concordance: the five seeds, then the designers' own games."""
    return [*SEED_FILES, *own_games()]


def split_sentences(line: str) -> list[str]:
    """The sentences of one seed line (see the module docstring for the rule)."""
    text = line.strip()
    if not text:
        return []
    out: list[str] = []
    for piece in _END.split(text):
        if out and (_LIST_MARKER.fullmatch(out[-1]) or out[-1].split()[-1].lstrip("(").lower() in ABBREVIATIONS):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def seed_sentences(game: str, root: Path | None = None) -> tuple[list[str], dict[tuple[int, int], str]]:
    """The seed's lines and its sentences keyed by ``(line, sentence)``, both 1-based."""
    path = rules_text_path(game, root)
    lines = path.read_text(encoding="utf-8").split("\n")
    sentences: dict[tuple[int, int], str] = {}
    for number, line in enumerate(lines, start=1):
        for index, sentence in enumerate(split_sentences(line), start=1):
            sentences[(number, index)] = sentence
    return lines, sentences


def _norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.split()).casefold()


@dataclass
class Row:
    game: str
    number: int  # the CSV line, for messages
    id: str
    to: str
    kind: str
    versions: str
    quote: str
    ref: str
    note: str
    prop: str = ""  # the optional ``property`` column
    start: tuple[int, int] = (0, 0)
    end: tuple[int, int] = (0, 0)
    tests: list[str] = field(default_factory=list)

    @property
    def full_id(self) -> str:
        return f"{self.game}:{self.id}"

    def refs(self) -> list[str]:
        return [r.strip() for r in self.ref.split(";") if r.strip()]


def concordance_path(game: str) -> Path:
    return ROOT / "docs" / "rules" / f"{game}.concordance.csv"


def read_rows(game: str) -> list[Row]:
    path = concordance_path(game)
    rows: list[Row] = []
    if not path.exists():
        return rows
    reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
    if tuple(reader.fieldnames or ()) not in (COLUMNS, COLUMNS + OPTIONAL_COLUMNS):
        raise SystemExit(f"{path}: the header must be {','.join(COLUMNS)}[,{','.join(OPTIONAL_COLUMNS)}]")
    for record in reader:
        rows.append(Row(game, reader.line_num, *((record.get(c) or "").strip() for c in COLUMNS + OPTIONAL_COLUMNS)))
    return rows


def marked_tests(tests_dir: Path | None = None) -> dict[str, list[str]]:
    """Every ``@pytest.mark.seed(...)`` id in the test files -> the tests that carry it."""
    marks: dict[str, list[str]] = defaultdict(list)
    base = tests_dir or ROOT / "tests"
    for path in sorted(base.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for deco in node.decorator_list:
                if (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "seed"
                        and isinstance(deco.func.value, ast.Attribute) and deco.func.value.attr == "mark"):
                    for arg in deco.args:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            marks[arg.value].append(f"{rel}::{node.name}")
    return marks


def ledger_entries(game: str) -> set[str]:
    """Numbers and bold titles of the entries under "## Interpretation ledger" in the game's rules doc."""
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    section = re.search(r"^## Interpretation ledger\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    entries: set[str] = set()
    if not section:
        return entries
    for match in re.finditer(r"^\s*(?:(\d+)\.|[-*])\s+(?:\*\*(.+?)\*\*)?", section.group(1), re.M):
        if match.group(1):
            entries.add(match.group(1))
        if match.group(2):
            entries.add(match.group(2).strip().rstrip(".").casefold())
    return entries


def resolve(reference: str) -> bool:
    module, _, qualname = reference.partition(":")
    if not module or not qualname:
        return False
    try:
        obj = importlib.import_module(module)
    except Exception:
        return False
    for part in qualname.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def property_rows(game: str) -> dict[str, list[str]]:
    """Concordance row id -> the names of the game's rule properties that check it (none if it declares none)."""
    from boardlab.engine import registry

    try:
        props = registry.game_class(game).properties
    except Exception:
        return {}
    return props.rows() if props else {}


def variant_names(game: str) -> set[str]:
    from boardlab.engine import registry

    return {v.name for v in registry.game_class(game).variants}


@dataclass
class Report:
    game: str
    problems: list[str]
    sentences: int
    by_kind: Counter
    rows: int
    rule_rows: int
    untested: int
    with_property: int = 0
    no_property_word: int = 0
    without_property: int = 0
    ledger_only: int = 0


def _parse_id(text: str) -> tuple[int, int] | None:
    match = _SENTENCE_ID.fullmatch(text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def check_game(game: str, marks: dict[str, list[str]], seeds: Path | None = None) -> tuple[Report, list[Row]]:
    lines, sentences = seed_sentences(game, seeds)
    order = list(sentences)
    position = {key: i for i, key in enumerate(order)}
    rows = read_rows(game)
    problems: list[str] = []
    where = f"docs/rules/{game}.concordance.csv"
    if not rows:
        problems.append(f"{where}: missing or empty")
    variants = variant_names(game)
    ledger = ledger_entries(game)
    covered: dict[int, set[str]] = defaultdict(set)
    seen_ids: set[str] = set()
    for row in rows:
        at = f"{where}:{row.number} ({row.id})"
        start = _parse_id(row.id.rstrip("abcdefghijklmnopqrstuvwxyz")) if _SENTENCE_ID.fullmatch(row.id) else None
        end = _parse_id(row.to) if row.to else start
        if start is None or end is None:
            problems.append(f"{at}: bad id or to (want L.S)")
            continue
        if row.id in seen_ids:
            problems.append(f"{at}: duplicate id")
        seen_ids.add(row.id)
        if start not in position or end not in position or position[end] < position[start]:
            problems.append(f"{at}: no such sentence run {row.id}..{row.to or row.id}")
            continue
        row.start, row.end = start, end
        span = order[position[start]: position[end] + 1]
        for key in span:
            covered[position[key]].add(row.kind)
        text = _norm(" ".join(sentences[k] for k in span))
        if row.kind not in KINDS:
            problems.append(f"{at}: unknown kind {row.kind!r}")
            continue
        if row.kind != "duplicate" and (not row.quote or _norm(row.quote) not in text):
            problems.append(f"{at}: quote {row.quote!r} is not in its sentences")
        refs = row.refs()
        if row.kind == "rule":
            wanted = [v.strip() for v in row.versions.split(";") if v.strip()]
            if not wanted:
                problems.append(f"{at}: a rule row names its versions")
            for name in wanted:
                if name != "all" and name not in variants:
                    problems.append(f"{at}: unknown version {name!r} (variants: {', '.join(sorted(variants))})")
            if not refs:
                problems.append(f"{at}: a rule row names the code (module:qualname)")
            for ref in refs:
                if not resolve(ref):
                    problems.append(f"{at}: code reference {ref!r} does not resolve")
            row.tests = marks.get(row.full_id, [])
        elif row.kind == "ledger":
            if not refs:
                problems.append(f"{at}: a ledger row names its ledger entry")
            for ref in refs:
                if ref not in ledger and ref.rstrip(".").casefold() not in ledger:
                    problems.append(f"{at}: no ledger entry {ref!r} in docs/rules/{game}.md")
        elif row.kind == "content":
            if not refs:
                problems.append(f"{at}: a content row names its data file")
            for ref in refs:
                if not (ROOT / ref).is_file():
                    problems.append(f"{at}: content file {ref!r} does not exist")
        elif row.kind == "not-a-rule":
            if len(refs) != 1 or " " in refs[0]:
                problems.append(f"{at}: a not-a-rule row gives a one-word reason")
        elif row.kind == "duplicate":
            match = re.fullmatch(r"(\d+)-(\d+)", row.ref)
            first = (int(match.group(1)), int(match.group(2))) if match else None
            if first is None:
                problems.append(f"{at}: a duplicate row names the first copy's lines A-B")
            else:
                copy = lines[start[0] - 1: end[0]]
                if lines[first[0] - 1: first[1]] != copy:
                    problems.append(f"{at}: lines {row.id.split('.')[0]}-{end[0]} do not repeat lines {row.ref}")
    for i, key in enumerate(order):
        if i not in covered:
            problems.append(f"{where}: sentence {key[0]}.{key[1]} is not covered: {sentences[key][:60]!r}")
    rule_rows = [r for r in rows if r.kind == "rule"]
    untested = [r for r in rule_rows if r.start != (0, 0) and not r.tests]
    for row in untested:
        problems.append(f"{where}:{row.number} ({row.id}): rule row without a test marked seed({row.full_id!r})")
    # rule properties: each names existing rule or ledger rows; a row named by none may say none:<word>
    checked = property_rows(game)
    by_id = {r.id: r for r in rows}
    for rid, names in sorted(checked.items()):
        target = by_id.get(rid)
        if target is None or target.kind not in ("rule", "ledger"):
            problems.append(f"{where}: rule property {names[0]!r} names row {rid!r}, which is not a rule or ledger row")
    for row in rows:
        if not row.prop:
            continue
        at = f"{where}:{row.number} ({row.id})"
        if row.kind not in ("rule", "ledger"):
            problems.append(f"{at}: only rule and ledger rows take a property word")
        elif not _NONE_PROPERTY.fullmatch(row.prop):
            problems.append(f"{at}: property column {row.prop!r}: want none:<word> (properties name their rows)")
        elif row.id in checked:
            problems.append(f"{at}: marked {row.prop!r}, but rule property {checked[row.id][0]!r} checks it")
    with_property = [r for r in rule_rows if r.id in checked]
    none_word = [r for r in rule_rows if r.id not in checked and r.prop]
    # ledger rows that are the only row of their sentences
    rule_spans = [(position.get(r.start, -1), position.get(r.end, -1)) for r in rule_rows if r.start != (0, 0)]
    ledger_only = [r for r in rows if r.kind == "ledger" and r.start != (0, 0)
                   and not any(a <= position[r.end] and position[r.start] <= b for a, b in rule_spans)]
    by_kind: Counter = Counter()
    for i in range(len(order)):
        kinds = covered.get(i)
        if kinds:
            by_kind[min(kinds, key=KINDS.index)] += 1
    report = Report(game, problems, len(order), by_kind, len(rows), len(rule_rows), len(untested),
                    len(with_property), len(none_word), len(rule_rows) - len(with_property) - len(none_word),
                    len(ledger_only))
    return report, rows


def render(game: str, rows: list[Row], sentences: dict[tuple[int, int], str]) -> str:
    """The concordance as a Markdown table, for the game's rules document."""
    def cell(text: str) -> str:  # repository paths in backticks, so front ends can tell and strip them
        text = re.sub(r"(?<![`\w/])((?:boardlab|tests|docs|scripts)/[\w/.-]*\w(?:::[\w\[\]-]+)?)", r"`\1`", text)
        return text.replace("|", "\\|").replace("\n", " ")

    out = [BEGIN, "", f"Generated from `docs/rules/{game}.concordance.csv` by `python scripts/concordance.py --write`;"
           " sentences are numbered `line.sentence` in the seed (see the script for the splitter).", "",
           "| sentences | kind | seed's words | versions | where | tests |", "|---|---|---|---|---|---|"]
    for row in rows:
        span = row.id if not row.to or row.to == row.id else f"{row.id}–{row.to}"
        where = "; ".join(f"`{r}`" for r in row.refs()) if row.kind in ("rule", "content") else cell(row.ref)
        if row.kind == "ledger":
            where = "ledger " + ", ".join(row.refs())
        if row.note:
            where = f"{where} ({cell(row.note)})" if where else cell(row.note)
        tests = "<br>".join(f"`{t.split('::', 1)[1]}`" for t in row.tests) if row.tests else ""
        out.append(f"| {span} | {row.kind} | “{cell(row.quote)}” | {cell(row.versions)} | {where} | {tests} |")
    out += ["", END]
    return "\n".join(out)


def write_table(game: str, table: str) -> bool:
    """Put the table into the rules document; True if the document changed."""
    path = ROOT / "docs" / "rules" / f"{game}.md"
    text = path.read_text(encoding="utf-8")
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        new = head + table + rest.split(END, 1)[1]
    else:
        new = text.rstrip("\n") + "\n\n## Concordance\n\nEvery sentence of the seed, and what it is in boardlab.\n\n" + table + "\n"
    if new != text:
        path.write_text(new, encoding="utf-8")
        return True
    return False


def table_is_current(game: str, table: str) -> bool:
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return BEGIN in text and END in text and BEGIN + text.split(BEGIN, 1)[1].split(END, 1)[0] + END == table


def run(games: list[str], write: bool = False, seeds: Path | None = None, out=sys.stdout) -> int:
    marks = marked_tests()
    known = set()
    failures = 0
    header = f"{'game':<18} {'sentences':>9} {'rule':>5} {'ledger':>6} {'content':>7} {'not-a-rule':>10} {'duplicate':>9} {'rows':>5} {'untested':>8}"
    header += f" {'prop':>5} {'none':>5} {'no-prop':>7} {'ledger-only':>11}"
    print(header, file=out)
    all_problems: list[str] = []
    for game in games:
        report, rows = check_game(game, marks, seeds)
        known.update(r.full_id for r in rows)
        _, sentences = seed_sentences(game, seeds)
        table = render(game, rows, sentences)
        if write:
            write_table(game, table)
        elif rows and not table_is_current(game, table):
            report.problems.append(f"docs/rules/{game}.md: the concordance table is stale (run scripts/concordance.py --write)")
        k = report.by_kind
        print(f"{game:<18} {report.sentences:>9} {k['rule']:>5} {k['ledger']:>6} {k['content']:>7} {k['not-a-rule']:>10}"
              f" {k['duplicate']:>9} {report.rows:>5} {report.untested:>8}"
              f" {report.with_property:>5} {report.no_property_word:>5} {report.without_property:>7}"
              f" {report.ledger_only:>11}", file=out)
        all_problems += report.problems
    if set(games) == set(all_games()):
        for mark, tests in sorted(marks.items()):
            if mark not in known:
                all_problems.append(f"{tests[0]}: marked seed({mark!r}), but no concordance row has that id")
    for problem in all_problems:
        print(problem, file=out)
        failures += 1
    print(f"{failures} problem(s)", file=out)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(all_games()), help="check only this game (repeatable)")
    parser.add_argument("--write", action="store_true", help="re-render the tables in docs/rules/<game>.md")
    parser.add_argument("--sentences", metavar="A-B", help="print the numbered sentences of lines A to B of --game's seed")
    args = parser.parse_args(argv)
    seeds = seeds_dir()
    chosen = args.game or all_games()
    if not seeds.is_dir():
        # a designer's own rules text is in the repository: those games are still checked
        chosen = [g for g in chosen if g not in SEED_FILES]
        print(f"concordance: {'seeds ' if chosen else ''}skipped, no seed documents at {seeds} (set BOARDLAB_SEEDS)")
        if not chosen:
            return 0
    sys.path.insert(0, str(ROOT))
    if args.sentences:
        a, _, b = args.sentences.partition("-")
        for game in chosen:
            _, sentences = seed_sentences(game, seeds)
            for (line, index), text in sentences.items():
                if int(a) <= line <= int(b or a):
                    print(f"{line}.{index}\t{text}")
        return 0
    return run(chosen, write=args.write, seeds=seeds)


if __name__ == "__main__":
    raise SystemExit(main())
