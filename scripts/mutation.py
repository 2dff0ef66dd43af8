#!/usr/bin/env python
"""A sampled mutation score for one game's rules modules (issue 42, part 2).

    nice python scripts/mutation.py --game dungeons-jewel --sample 40 --seed 2 --jobs 1 --timeout 300
    python scripts/mutation.py --game armies --sample 80 --seed 2 --jobs 2 --timeout 120

**Tool.**  Mutants are made and applied by Cosmic Ray 8 (PyPI ``cosmic-ray``), with its default
operator set: comparison, binary, unary and boolean operator swaps, ``and``/``or``, ``True``/``False``,
``not`` added, numbers +1 and -1, ``break``/``continue``, loops run zero times, ``except`` clauses that
catch nothing, decorators removed.  Its session is an SQLite file: ``cosmic-ray init`` lists every
mutant of the modules as a work item, this script marks every work item outside the sample as
*skipped*, and ``cosmic-ray exec`` runs the rest.

**Modules.**  The game's *rules modules* are every module of ``boardlab/games/<pkg>/`` except the
ones that declare, show, evaluate, play or load the game (:data:`NOT_RULES`: ``game``, ``view``,
``scene``, ``features``, ``agents``, ``content``, ``properties``, and ``core``, which hands the game to
the compiled core): ``rules.py`` and its
rule-implementing siblings (``combat.py``, ``moves.py``, ``cards.py``, ``board.py``, ...).

**Ids.**  A mutant's id is ``<module>:<line>:<operator>:<k>``, where ``k`` counts the mutants of
that operator on that line, left to right (the two of ``NumberReplacer``, +1 then -1, share a
position and keep Cosmic Ray's order).  It depends only on the module's text, not on Cosmic Ray's
random job ids, so reruns, the result files and the dispositions file agree.

**Sample.**  The population is every mutant of the rules modules, less those inside annotations of a
module with ``from __future__ import annotations`` (strings nothing evaluates, so equivalent by
construction: :func:`annotation_spans`; their number is reported), sorted by id (module, line,
operator, k); the sample is ``random.Random(seed).sample(population, n)``: n drawn uniformly without
replacement, the same n for the same seed and the same source.  ``--jobs J`` deals the sample
round-robin to J scratch copies, each running its own ``cosmic-ray exec``.  ``--ids ID ...`` runs the
given mutants instead (to recheck survivors and timeouts); the score of such a run is not a sample's.

**Killers.**  Each mutant is tested by stages, run in order until one fails (``pytest -x``):
``tests/<pkg>`` (the game's tests, its ``test_rule_properties.py`` and ``test_mutants.py`` included
once they exist), ``tests/conformance -k <game>`` (the conformance suite, rule properties included,
restricted to the game), and the tests elsewhere marked ``@pytest.mark.seed("<game>:...")``.
Hypothesis runs with a fixed seed and a fresh example database per mutant, so one mutant's result
never depends on another's.  An unmutated baseline must pass first (else the run stops: a failing
baseline would count every mutant as killed); ``--deselect NODEID`` leaves out a test that is
failing in the tree for reasons of its own, and ``--deselect-failing`` leaves out every test that
fails there (a file that fails to collect is ignored whole); the result file records what was left out.

**Selection** (``--select coverage``, the default).  The baseline runs every killer test to the end under
coverage.py, measuring the rules modules only, with a dynamic context per test and phase
(``<stage>|run|<node id>``, ``|setup|``, ``|teardown|``, and ``|collect|<file>`` while a test file is
imported: ``COVERAGE_PLUGIN_TEXT``; Hypothesis's deadline is off in that slower run).  Each mutant then
runs, stage by stage and in the same order, only the killer tests that executed its line
(:func:`select_tests`, :func:`key_lines`): the lines of the statement holding it (or of a compound
statement's header up to it), a test counted when its own run executed one of them, and every test of a
file when that file's fixture setup or teardown did.  A mutant's line is the one line on which a rules
module differs from its original when the test command starts (the runner compares them), so Cosmic Ray
needs no change.  Where the tests cannot be told apart, every killer test runs, as without selection: a
line that runs at import (module or class level, a ``def`` header, a decorator, a default: outside any
function body), and a line executed while a test file was being imported or outside any test (what an
import builds may serve every test).  A mutant on a line that no test executes survives without a test
run.  Since a test that never reaches a line behaves the same with the line mutated (the rules are
deterministic, Hypothesis is seeded, and no rules module caches across tests), this kills the same
mutants as running every test; it only skips the runs that cannot fail.  The result records
``tests_selected`` per mutant.  ``--select all`` runs every killer test for every mutant (the method of
the seed-1 runs in docs/benchmarks.md).

**Timeouts.**  ``--timeout T`` seconds per mutant (default: the larger of 60 s and five times the
baseline, which runs under coverage when selecting, so is slower than a plain run).  A mutant whose
tests run longer is killed by Cosmic Ray's timeout; it counts as killed
and is reported as ``timeout``.

**Where.**  Everything runs in a scratch copy of the tree under the system temporary directory
(without ``.git`` and caches), with ``PYTHONPATH`` pointing there and ``BOARDLAB_ENGINE=python`` (so
the mutated Python rules play, never the compiled core); the script checks that the game imports
from the copy before it starts.  The checkout itself is never modified; only the result file
is written (atomically) into it.

**Budget.**  ``--budget S`` stops running mutants after S seconds and reports the ones that finished;
the others are reported as ``not-run`` and left out.  Cosmic Ray runs pending work in random order
(``ORDER BY random()``), so the finished ones are still a uniform random sample, only smaller.

**Score.**  killed (timeouts included) / (sampled - equivalent - not run), with its Wilson 95%
interval (:func:`boardlab.stats.wilson`).  *Equivalent* mutants are those that ``--equivalent FILE``
(default ``benchmarks/mutation_dispositions.json``) records as such, with why; a disposition records
the mutated line's text and is applied only while that line still reads the same.  *Not run* are
mutants Cosmic Ray could not apply (``no-test``, ``incompetent``) and those the budget left (``not-run``).

``--rescore RESULT`` re-judges a result file with the current dispositions without running a mutant:
its ``score`` leaves out the mutants since shown equivalent, and ``score_with_added_tests`` also counts
the survivors whose disposition names the test added to kill them.

Writes the JSON result to ``--out`` (default ``benchmarks/results/mutation-<game>.json``) and prints it.
Exit code 0 when the run finished, 1 when the baseline failed, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boardlab.stats import wilson  # noqa: E402

#: Modules of a game package that are not rules (see the module docstring).
NOT_RULES = frozenset({"__init__", "game", "view", "scene", "features", "agents", "content", "properties", "core"})
#: Directories and files never copied into the scratch tree.
COPY_IGNORE = (".git", "__pycache__", ".hypothesis", ".pytest_cache", ".cache", "test-artifacts", "*.egg-info",
               "target", ".venv", "node_modules", "mutants")
DEFAULT_DISPOSITIONS = "benchmarks/mutation_dispositions.json"
RUNNER = "_mutation_killers.py"
SEED_FILTER = "_mutation_seed_filter.py"
TARGET = 0.90
COSMIC_RAY = (sys.executable, "-m", "cosmic_ray.cli")


# ---------------------------------------------------------------------------------------------
# pure parts (tests/test_mutation_script.py)


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutant: where (module path relative to the repository, 1-based line and column span),
    which Cosmic Ray operator and occurrence, and its stable id."""

    id: str
    module: str
    line: int
    col: int
    end: tuple[int, int]
    operator: str
    occurrence: int
    job_id: str = ""


def mutant_id(module: str, line: int, operator: str, k: int) -> str:
    """The stable id ``<module>:<line>:<operator>:<k>``."""
    return f"{module}:{line}:{operator}:{k}"


def assign_ids(specs: Iterable[tuple[str, tuple[int, int], tuple[int, int], str, int, str]]) -> list[Mutant]:
    """Mutants from ``(module, start, end, operator, occurrence, job_id)`` tuples, with stable ids.

    ``k`` numbers the mutants of one operator on one line in the order (start column, end, occurrence);
    the result is sorted by (module, line, operator, k), whatever order the specs came in.
    """
    groups: dict[tuple[str, int, str], list[tuple[tuple[int, int], tuple[int, int], int, str]]] = {}
    for module, start, end, operator, occurrence, job_id in specs:
        groups.setdefault((module, int(start[0]), operator), []).append(
            ((int(start[0]), int(start[1])), (int(end[0]), int(end[1])), int(occurrence), job_id))
    out = []
    for (module, line, operator), items in groups.items():
        for k, (start, end, occurrence, job_id) in enumerate(sorted(items)):
            out.append(Mutant(mutant_id(module, line, operator, k), module, line, start[1], end, operator,
                              occurrence, job_id))
    out.sort(key=sort_key)
    return out


def sort_key(m: Mutant) -> tuple[str, int, str, int]:
    return (m.module, m.line, m.operator, int(m.id.rsplit(":", 1)[1]))


def draw_sample(population: Sequence[Mutant], n: int, seed: int) -> list[Mutant]:
    """``n`` mutants drawn uniformly without replacement by ``random.Random(seed)`` from the population
    in id order (all of it when ``n`` is at least its size); returned in id order."""
    ordered = sorted(population, key=sort_key)
    if n >= len(ordered):
        return ordered
    return sorted(random.Random(seed).sample(ordered, n), key=sort_key)


def deal(items: Sequence[Any], jobs: int) -> list[list[Any]]:
    """Round-robin ``items`` into ``jobs`` non-empty shards (fewer when there are fewer items)."""
    jobs = max(1, min(jobs, len(items)))
    return [list(items[j::jobs]) for j in range(jobs)]


def score(counts: dict[str, int]) -> dict[str, Any]:
    """The mutation score from outcome counts: killed + timeout over sampled - equivalent - not run."""
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    denominator = killed + counts.get("survived", 0)
    lo, hi = wilson(killed, denominator)
    value = killed / denominator if denominator else None
    return {"killed": killed, "denominator": denominator, "score": value, "wilson95": [lo, hi],
            "meets_target": None if value is None else value >= TARGET}


def failures_of(output: str | None) -> list[str]:
    """Every failing test (``FAILED``/``ERROR`` node id) in a pytest output, in order."""
    out = []
    for line in (output or "").splitlines():
        m = re.match(r"^(?:FAILED|ERROR) (\S+)", line.strip())
        if m and m.group(1) not in out:
            out.append(m.group(1))
    return out


def killer_of(output: str | None) -> str | None:
    """The first failing test (``FAILED``/``ERROR`` node id) in a pytest output, else ``None``."""
    if not output:
        return None
    if output.strip() == "timeout":
        return "timeout"
    for line in output.splitlines():
        m = re.match(r"^(?:FAILED|ERROR) (\S+)", line.strip())
        if m:
            return m.group(1)
    m = re.search(r"mutation-killers: stage (\S+) failed", output)
    return f"stage {m.group(1)}" if m else None


def load_dispositions(path: Path | None) -> dict[str, dict[str, Any]]:
    """``{mutant id: disposition}`` from a dispositions file (``{"mutants": {...}}``); empty if none."""
    if path is None or not path.exists():
        return {}
    doc = json.loads(path.read_text(encoding="utf-8"))
    mutants = doc.get("mutants", doc) if isinstance(doc, dict) else None
    if not isinstance(mutants, dict):
        raise ValueError(f"{path}: expected an object with a 'mutants' object keyed by mutant id")
    for key, d in mutants.items():
        if not isinstance(d, dict) or "disposition" not in d:
            raise ValueError(f"{path}: {key}: a disposition needs a 'disposition' field")
        if d["disposition"] == "equivalent" and not str(d.get("why", "")).strip():
            raise ValueError(f"{path}: {key}: an equivalent mutant needs a 'why'")
    return mutants


def classify(outcome: str, disposition: dict[str, Any] | None, code: str) -> tuple[str, str | None]:
    """The reported outcome of a mutant given Cosmic Ray's (``killed``, ``timeout``, ``survived``, ``no-test``,
    ``incompetent``) and its recorded disposition; and a warning when the disposition does not apply."""
    if disposition is None:
        return outcome, None
    recorded = disposition.get("code")
    if recorded is not None and recorded.strip() != code.strip():
        return outcome, f"disposition is stale (the line now reads {code.strip()!r})"
    if disposition.get("disposition") == "equivalent":
        if outcome in ("killed", "timeout"):
            return outcome, "recorded as equivalent, but the tests kill it"
        if outcome == "survived":
            return "equivalent", None
    return outcome, None


def write_json_atomic(path: Path, doc: Any) -> None:
    """Write ``doc`` as JSON to ``path``: a temporary file beside it, fsync, rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The (start, end) positions (line 1-based, column in characters) of every annotation in a module that
    has ``from __future__ import annotations``; none otherwise.  There an annotation is a string that
    nothing evaluates (the engine and the games call no ``get_type_hints``), so a mutant inside one is
    equivalent by construction (``int | None`` to ``int // None``)."""
    import ast

    tree = ast.parse(source)
    future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__"
                 and any(a.name == "annotations" for a in n.names) for n in tree.body)
    if not future:
        return []
    lines = source.splitlines()

    def col(line: int, byte_col: int) -> int:  # ast counts UTF-8 bytes, Cosmic Ray (parso) characters
        return len(lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    nodes = []
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = n.args
            nodes += [x.annotation for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                      if x is not None and x.annotation is not None]
            if n.returns is not None:
                nodes.append(n.returns)
        elif isinstance(n, ast.AnnAssign):
            nodes.append(n.annotation)
    return sorted(((x.lineno, col(x.lineno, x.col_offset)), (x.end_lineno, col(x.end_lineno, x.end_col_offset)))
                  for x in nodes)


def in_annotation(m: Mutant, spans: Sequence[tuple[tuple[int, int], tuple[int, int]]]) -> bool:
    """Whether the mutant's position lies inside one of the annotation ``spans``."""
    return any(start <= (m.line, m.col) and m.end <= end for start, end in spans)


def rules_modules(pkg_dir: Path) -> list[Path]:
    """The rules modules of a game package (every ``*.py`` but :data:`NOT_RULES`), sorted."""
    return sorted(p for p in pkg_dir.glob("*.py") if p.stem not in NOT_RULES)


def key_lines(source: str, line: int) -> tuple[int, ...] | None:
    """The lines whose execution a mutant on ``line`` of ``source`` needs, or ``None`` when the line runs at
    import (module or class level, a ``def`` header or decorator outside any function): then every test.

    The innermost statement holding the line decides: all the lines of a simple statement (a mutated
    continuation line may have no line event of its own), or the lines of a compound statement's header
    from its first (decorators included) to ``line`` (an ``if``/``while`` condition, a ``for`` header, an
    ``except`` clause, whose ``try`` line then counts too)."""
    import ast

    best: list[tuple[ast.stmt, int, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                first = min([child.lineno] + [d.lineno for d in getattr(child, "decorator_list", [])])
                if not first <= line <= child.end_lineno:
                    continue
                best.append((child, first, in_function))
                body = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                visit(child, in_function or body)
            else:
                visit(child, in_function)

    visit(ast.parse(source), False)
    if not best:
        return None
    stmt, first, in_function = best[-1]
    if not in_function:
        return None
    compound = hasattr(stmt, "body") or isinstance(stmt, ast.Match)
    return tuple(range(first, (line if compound else stmt.end_lineno) + 1))


def select_tests(contexts_by_line: dict[int, Iterable[str]], lines: Sequence[int] | None,
                 items: dict[str, list[str]]) -> dict[str, list[str]] | None:
    """The tests to run against a mutant whose :func:`key_lines` are ``lines``: ``{stage: [node id, ...]}`` in
    each stage's collection order, or ``None`` for every test of every stage.

    ``contexts_by_line`` maps a line of the module to the coverage contexts that ran it
    (``<stage>|<phase>|<node id>``, see ``COVERAGE_PLUGIN_TEXT``); ``items`` lists each stage's tests in order.
    A test's own run selects that test; a fixture's setup or teardown selects every test of that file (a
    module-scoped fixture serves them all); a line run while a test file is imported (collection), or outside
    any test (the empty context: a conftest), selects everything, since what an import builds may serve the
    tests of any file.  ``{}``: no test runs the line."""
    if lines is None:
        return None
    contexts: set[str] = set()
    for n in lines:
        contexts.update(contexts_by_line.get(n, ()))
    chosen: dict[str, set[str]] = {}
    for c in contexts:
        parts = c.split("|", 2)
        if len(parts) != 3 or parts[0] not in items:
            return None
        stage, phase, node = parts
        if phase == "collect":  # what importing a test file builds may serve the tests of other files too
            return None
        if phase == "run":
            chosen.setdefault(stage, set()).add(node)
        else:
            file = node.split("::", 1)[0]
            chosen.setdefault(stage, set()).update(i for i in items[stage] if i.split("::", 1)[0] == file)
    return {stage: [i for i in items[stage] if i in chosen[stage]] for stage in items if chosen.get(stage)}


def read_coverage(cover_dir: Path, stage_names: Sequence[str], root: Path
                  ) -> tuple[dict[str, dict[int, set[str]]], dict[str, list[str]]]:
    """``({module: {line: contexts}}, {stage: [node id, ...]})`` from a coverage baseline's files."""
    from coverage import CoverageData

    by_module: dict[str, dict[int, set[str]]] = {}
    items: dict[str, list[str]] = {}
    for name in stage_names:
        listed = cover_dir / f"{name}.items.json"
        items[name] = json.loads(listed.read_text(encoding="utf-8")) if listed.exists() else []
        data_file = cover_dir / f"{name}.coverage"
        if not data_file.exists():
            continue
        data = CoverageData(basename=str(data_file))
        data.read()
        for f in data.measured_files():
            module = Path(f).resolve().relative_to(root.resolve()).as_posix()
            lines = by_module.setdefault(module, {})
            for n, ctxs in data.contexts_by_lineno(f).items():
                lines.setdefault(n, set()).update(ctxs)
    return by_module, items


# ---------------------------------------------------------------------------------------------
# the run


RUNNER_TEXT = '''"""Written by scripts/mutation.py: run the killer stages in order, stop at the first failing one.

Under ``MUTATION_COVERAGE_DIR`` (the baseline) every stage runs to the end with per-test coverage of the rules
modules.  Otherwise, when ``_mutation_selection.json`` is there, the one line on which a rules module differs
from its original (the mutant's line) picks the tests to run; a line missing from the table runs every test."""
import json, os, subprocess, sys, tempfile
from pathlib import Path
STAGES = json.loads({stages!r})
HERE = Path(__file__).resolve().parent
ALL = os.environ.get("MUTATION_ALL_FAILURES") == "1"  # the baseline: every failure, not just the first
COVER = os.environ.get("MUTATION_COVERAGE_DIR")


def mutated_line():
    originals = json.loads((HERE / "_mutation_originals.json").read_text(encoding="utf-8"))
    for module, text in originals.items():
        now = (HERE / module).read_text(encoding="utf-8")
        if now != text:
            a, b = text.splitlines(), now.splitlines()
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    return module, i + 1
            return module, min(len(a), len(b)) + 1
    return None


selection = None  # None: every test of every stage
table_path = HERE / "_mutation_selection.json"
if not COVER and table_path.exists():
    where = mutated_line()
    if where is None:
        print("mutation-killers: no rules module differs from its original: every test runs", flush=True)
    else:
        chosen = json.loads(table_path.read_text(encoding="utf-8")).get(where[0], {{}}).get(str(where[1]), "all")
        if chosen != "all":
            selection = chosen
        n = "every" if selection is None else sum(map(len, selection.values()))
        print(f"mutation-killers: mutant on {{where[0]}}:{{where[1]}}: {{n}} tests selected", flush=True)
        if selection is not None and not any(selection.values()):
            print("mutation-killers: no test executes this line: survived without a run", flush=True)
            sys.exit(0)
failed = False
for name, opts, paths, env in STAGES:
    if ALL or COVER:
        opts = [a for a in opts if a != "-x"]
    extra = dict(env)
    with tempfile.TemporaryDirectory(prefix="hyp-") as hyp:
        if COVER:
            opts = [*opts, "-p", "_mutation_coverage"]
            extra.update(MUTATION_COVER_DATA=os.path.join(COVER, name + ".coverage"),
                         MUTATION_COVER_ITEMS=os.path.join(COVER, name + ".items.json"),
                         MUTATION_COVER_STAGE=name)
        elif selection is not None:
            nodes = selection.get(name, [])
            if not nodes:
                continue
            listed = os.path.join(hyp, "nodes.json")
            with open(listed, "w", encoding="utf-8") as fh:
                json.dump(nodes, fh)
            opts = [*opts, "-p", "_mutation_select"]
            paths = list(dict.fromkeys(n.split("::", 1)[0] for n in nodes))
            extra["MUTATION_SELECT_NODES"] = listed
        r = subprocess.run([sys.executable, "-m", "pytest", *opts, *paths],
                           env=dict(os.environ, HYPOTHESIS_STORAGE_DIRECTORY=hyp, **extra))
    if r.returncode not in (0, 5):  # 5: the stage selected no test
        print(f"mutation-killers: stage {{name}} failed (exit {{r.returncode}})", flush=True)
        failed = True
        if not (ALL or COVER):
            break
sys.exit(1 if failed else 0)
'''

COVERAGE_PLUGIN_TEXT = '''"""Written by scripts/mutation.py: per-test coverage of the rules modules
(coverage.py dynamic contexts).

Contexts are ``<stage>|<phase>|<node id>``: phase ``run`` for a test's call, ``setup``/``teardown`` for its
fixtures, ``collect`` (node id: the test file) for what importing a test file runs.  Lines run outside these
keep the empty context.  The final list of test items goes to ``MUTATION_COVER_ITEMS``."""
import json, os
import coverage

_STAGE = os.environ["MUTATION_COVER_STAGE"]
_FILES = json.loads(os.environ["MUTATION_COVER_FILES"])
_cov = coverage.Coverage(data_file=os.environ["MUTATION_COVER_DATA"], include=_FILES, branch=False,
                         config_file=False)
_cov.start()  # at import of this plugin (-p): before any conftest imports the game

try:  # a slower traced run must not fail on Hypothesis's deadline
    from hypothesis import settings as _settings
    _settings.register_profile("mutation-coverage", deadline=None)
    _settings.load_profile("mutation-coverage")
except ImportError:
    pass

import pytest


def _switch(phase, nodeid):
    _cov.switch_context(f"{{_STAGE}}|{{phase}}|{{nodeid}}" if phase else "")


def pytest_collectstart(collector):
    if isinstance(collector, pytest.Module):
        _switch("collect", collector.nodeid)


def pytest_collectreport(report):
    _switch(None, None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    _switch("setup", item.nodeid)
    yield
    _switch(None, None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _switch("run", item.nodeid)
    yield
    _switch(None, None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    _switch("teardown", item.nodeid)
    yield
    _switch(None, None)


def pytest_collection_finish(session):
    with open(os.environ["MUTATION_COVER_ITEMS"], "w", encoding="utf-8") as fh:
        json.dump([i.nodeid for i in session.items], fh)


def pytest_unconfigure(config):
    _cov.stop()
    _cov.save()
'''

SELECT_PLUGIN_TEXT = '''"""Written by scripts/mutation.py: run only the tests listed in
``MUTATION_SELECT_NODES`` (a JSON list of node ids).  If one of them is not collected (its id changed),
every test of the files given runs instead."""
import json, os


def pytest_collection_modifyitems(config, items):
    with open(os.environ["MUTATION_SELECT_NODES"], encoding="utf-8") as fh:
        want = set(json.load(fh))
    have = {{i.nodeid for i in items}}
    if not want <= have:
        print(f"mutation-select: {{len(want - have)}} selected tests not collected: every test of their files runs")
        return
    keep = [i for i in items if i.nodeid in want]
    drop = [i for i in items if i.nodeid not in want]
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep
'''

SEED_FILTER_TEXT = '''"""Written by scripts/mutation.py: keep the tests marked seed("<MUTATION_SEED_GAME>:...")."""
import os
def pytest_collection_modifyitems(config, items):
    prefix = os.environ["MUTATION_SEED_GAME"] + ":"
    keep, drop = [], []
    for item in items:
        rows = [a for m in item.iter_markers("seed") for a in m.args]
        (keep if any(str(r).startswith(prefix) for r in rows) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep
'''


def game_package(gid: str) -> str:
    from boardlab.games import BUILTIN

    if gid not in BUILTIN:
        raise SystemExit(f"mutation.py: unknown game {gid!r} (one of {', '.join(sorted(BUILTIN))})")
    return BUILTIN[gid].split(":")[0].rsplit(".", 1)[0].rsplit(".", 1)[1]


def marked_elsewhere(root: Path, gid: str, pkg: str) -> list[str]:
    """Test files outside ``tests/<pkg>`` and ``tests/conformance`` that may mark tests with the game's rows."""
    out = []
    for p in sorted((root / "tests").rglob("test_*.py")):
        rel = p.relative_to(root).as_posix()
        if rel.startswith((f"tests/{pkg}/", "tests/conformance/")):
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        if "seed(" in text and (f'"{gid}:' in text or f"'{gid}:" in text):
            out.append(rel)
    return out


def stages(gid: str, pkg: str, elsewhere: list[str], deselect: Sequence[str]
           ) -> list[tuple[str, list[str], list[str], dict]]:
    """The killer stages: ``(name, pytest options, test paths, environment)``, run in this order."""
    common = ["-x", "-q", "-p", "no:cacheprovider", "--hypothesis-seed=0"]
    for d in deselect:  # a test, or a whole file that fails to collect
        common += ["--deselect" if "::" in d else "--ignore", d]
    out = [("game", common, [f"tests/{pkg}"], {}),
           ("conformance", common + ["-k", gid], ["tests/conformance"], {})]
    if elsewhere:
        out.append(("marked", common + ["-p", Path(SEED_FILTER).stem], list(elsewhere), {"MUTATION_SEED_GAME": gid}))
    return out


def make_scratch(src: Path, parent: str | None = None) -> Path:
    dest = Path(tempfile.mkdtemp(prefix="boardlab-mutation-", dir=parent))
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(*COPY_IGNORE), dirs_exist_ok=True, symlinks=True)
    return dest


def scratch_env(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(scratch) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["BOARDLAB_ENGINE"] = "python"  # the mutated Python rules play, never the compiled core
    env.pop("PYTEST_ADDOPTS", None)
    return env


def check_imports_from(scratch: Path, pkg: str) -> None:
    r = subprocess.run([sys.executable, "-c", f"import boardlab.games.{pkg}.rules as m; print(m.__file__)"],
                       cwd=scratch, env=scratch_env(scratch), capture_output=True, text=True, check=True)
    where = Path(r.stdout.strip()).resolve()
    if scratch.resolve() not in where.parents:
        raise SystemExit(f"mutation.py: the scratch copy imports boardlab from {where}, not from {scratch}")


def population_of(session: Path, scratch: Path) -> list[Mutant]:
    con = sqlite3.connect(session)
    try:
        rows = con.execute("SELECT module_path, start_pos_row, start_pos_col, end_pos_row, end_pos_col, "
                           "operator_name, occurrence, job_id FROM mutation_specs").fetchall()
    finally:
        con.close()
    return assign_ids((Path(m).as_posix(), (sr, sc), (er, ec), op, occ, job)
                      for m, sr, sc, er, ec, op, occ, job in rows)


def keep_only(session: Path, job_ids: set[str]) -> None:
    """Mark every work item of the session outside ``job_ids`` as skipped (Cosmic Ray's WorkDB)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        skip = [w.job_id for w in db.work_items if w.job_id not in job_ids]
        db.set_multiple_results(skip, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))


def results_of(session: Path) -> dict[str, Any]:
    """The results of the mutants this session ran.  The ``SKIPPED`` marks of :func:`keep_only` (the other
    shards' mutants) are left out, so merging the shards' sessions never lets one shard's marks hide
    another shard's results."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome

    with use_db(str(session), WorkDB.Mode.open) as db:
        return {job: r for job, r in db.results if r.worker_outcome != WorkerOutcome.SKIPPED}


def merge_results(sessions: Sequence[Path]) -> dict[str, Any]:
    """Every shard's results by job id (each mutant runs in exactly one shard)."""
    merged: dict[str, Any] = {}
    for session in sessions:
        merged.update(results_of(session))
    return merged


def outcome_of(result: Any) -> str:
    wo = str(getattr(result.worker_outcome, "value", result.worker_outcome))
    if wo == "no-test":
        return "no-test"
    to = str(getattr(result.test_outcome, "value", result.test_outcome))
    if to == "killed":
        return "timeout" if (result.output or "").strip() == "timeout" else "killed"
    if to == "survived":
        return "survived"
    return "incompetent"


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (from /proc), children first."""
    parent: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parent[int(stat.parent.name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    out, todo = [], [pid]
    while todo:
        here = todo.pop()
        kids = [c for c, p in parent.items() if p == here]
        out += kids
        todo += kids
    return out


def stop_tree(proc: subprocess.Popen) -> None:
    """Stop a ``cosmic-ray exec`` before it records another result, then end the test run it started
    (its own process group)."""
    import signal

    if proc.poll() is not None:
        return
    os.kill(proc.pid, signal.SIGSTOP)  # no new test run from here on
    below = descendants(proc.pid)
    proc.kill()
    proc.wait()
    for pid in below:
        for kill in (lambda: os.killpg(os.getpgid(pid), signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                kill()
                break
            except OSError:
                continue


def cosmic_ray_version() -> str:
    from importlib.metadata import version

    return version("cosmic-ray")


def coverage_version() -> str:
    from importlib.metadata import version

    return version("coverage")


def rescore(doc: dict[str, Any], dispositions: dict[str, dict[str, Any]], how: str) -> dict[str, Any]:
    """A result document re-judged with the current dispositions, without running a mutant again.

    ``score`` excludes the mutants now recorded as equivalent and those of modules no longer counted as
    rules (``out-of-scope``: the rest of a uniform sample is a uniform sample of the rest);
    ``score_with_added_tests`` also counts as
    killed the survivors whose disposition names the test added to kill them (run them again with
    ``--ids`` to see those tests kill them)."""
    counts: dict[str, int] = {}
    added: dict[str, int] = {}
    warnings = []
    for row in doc["mutants"]:
        raw = row.get("raw_outcome") or ("survived" if row["outcome"] == "equivalent" else row["outcome"])
        disp = dispositions.get(row["id"])
        outcome, warning = classify(raw, disp, row["code"])
        if Path(row["id"].split(":", 1)[0]).stem in NOT_RULES:
            outcome, warning = "out-of-scope", None  # a module no longer counted as rules (NOT_RULES)
        if warning:
            warnings.append(f"{row['id']}: {warning}")
        row["raw_outcome"], row["outcome"] = raw, outcome
        if disp is not None:
            row["disposition"] = disp
        else:
            row.pop("disposition", None)
        counts[outcome] = counts.get(outcome, 0) + 1
        later = "killed" if (outcome == "survived" and disp is not None and disp.get("disposition") == "killed"
                             and not warning) else outcome
        added[later] = added.get(later, 0) + 1
    doc["counts"] = dict(sorted(counts.items()))
    doc["score"] = score(counts)
    doc["score_with_added_tests"] = score(added)
    doc["warnings"] = warnings
    doc["rescored"] = how
    return doc


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game")
    ap.add_argument("--sample", type=int, help="mutants to draw (all of them if larger)")
    ap.add_argument("--rescore", metavar="RESULT",
                    help="re-judge a result file with the current --equivalent dispositions; runs no mutant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=None, help="seconds per mutant (default max(60, 5 x baseline))")
    ap.add_argument("--equivalent", default=DEFAULT_DISPOSITIONS, help="dispositions file ('' for none)")
    ap.add_argument("--deselect", action="append", default=[], help="a failing test node id to leave out")
    ap.add_argument("--deselect-failing", action="store_true",
                    help="run the baseline to the end and leave out every test that fails on the unmutated tree")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds for the mutants; then stop and report those run (a uniform subsample, see above)")
    ap.add_argument("--ids", nargs="+", default=None,
                    help="run these mutant ids instead of a random sample (to recheck survivors and timeouts)")
    ap.add_argument("--select", choices=("coverage", "all"), default="coverage",
                    help="per mutant, run the killer tests that execute its line (default) or all of them")
    ap.add_argument("--out", default=None)
    ap.add_argument("--keep", action="store_true", help="keep the scratch copies (printed)")
    args = ap.parse_args(argv)
    given = argv if argv is not None else sys.argv[1:]
    command = "python scripts/mutation.py " + " ".join(shlex.quote(a) for a in given)
    if args.rescore:
        path = Path(args.rescore)
        doc = rescore(json.loads(path.read_text(encoding="utf-8")),
                      load_dispositions((ROOT / args.equivalent) if args.equivalent else None), command)
        write_json_atomic(path, doc)
        print(json.dumps({k: doc[k] for k in ("game", "command", "rescored", "counts", "score",
                                             "score_with_added_tests", "warnings")}, indent=1))
        return 0
    if not args.game or not args.sample:
        ap.error("--game and --sample are required (or --rescore RESULT)")
    if args.sample < 1 or args.jobs < 1:
        ap.error("--sample and --jobs must be positive")
    gid = args.game
    pkg = game_package(gid)
    out_path = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / f"mutation-{gid}.json"
    disp_path = (ROOT / args.equivalent) if args.equivalent else None
    dispositions = load_dispositions(disp_path)
    t0 = time.monotonic()

    def say(msg: str) -> None:
        print(f"[mutation {gid} {time.monotonic() - t0:6.0f}s] {msg}", file=sys.stderr, flush=True)

    scratches: list[Path] = []
    auto_deselected: list[str] = []
    try:
        base = make_scratch(ROOT)
        scratches.append(base)
        say(f"scratch copy {base}")
        check_imports_from(base, pkg)
        modules = [p.relative_to(base).as_posix() for p in rules_modules(base / "boardlab" / "games" / pkg)]
        elsewhere = marked_elsewhere(base, gid, pkg)
        stage_list = stages(gid, pkg, elsewhere, args.deselect)
        (base / RUNNER).write_text(RUNNER_TEXT.format(stages=json.dumps(stage_list)), encoding="utf-8")
        (base / SEED_FILTER).write_text(SEED_FILTER_TEXT, encoding="utf-8")
        env = scratch_env(base)

        cover_dir = base / "_mutation_coverage"
        if args.select == "coverage":
            cover_dir.mkdir()
            (base / "_mutation_coverage.py").write_text(COVERAGE_PLUGIN_TEXT.format(), encoding="utf-8")
            (base / "_mutation_select.py").write_text(SELECT_PLUGIN_TEXT.format(), encoding="utf-8")
            benv = dict(env, MUTATION_COVERAGE_DIR=str(cover_dir),
                        MUTATION_COVER_FILES=json.dumps([str(base / m) for m in modules]))
            say("baseline (unmutated), every test with per-test coverage of the rules modules ...")
        else:
            benv = dict(env, MUTATION_ALL_FAILURES="1" if args.deselect_failing else "0")
            say("baseline (unmutated) ...")
        b0 = time.monotonic()
        r = subprocess.run([sys.executable, RUNNER], cwd=base, capture_output=True, text=True, env=benv)
        baseline = time.monotonic() - b0
        failing = failures_of(r.stdout)
        if r.returncode != 0 and args.deselect_failing and failing:
            say(f"the baseline fails in {len(failing)} tests, left out (--deselect-failing): {failing}")
            auto_deselected.extend(failing)
            stage_list = stages(gid, pkg, elsewhere, [*args.deselect, *failing])
            (base / RUNNER).write_text(RUNNER_TEXT.format(stages=json.dumps(stage_list)), encoding="utf-8")
        elif r.returncode != 0:
            print(r.stdout[-4000:], file=sys.stderr)
            say(f"the baseline fails ({killer_of(r.stdout)}): fix it or --deselect it; no mutant was run")
            return 1
        timeout = args.timeout if args.timeout else max(60.0, 5 * baseline)
        say(f"baseline passed in {baseline:.1f}s; timeout per mutant {timeout:.0f}s")

        config = base / "mutation.toml"
        config.write_text(
            "[cosmic-ray]\n"
            f"module-path = {json.dumps(modules)}\n"
            f"timeout = {timeout}\n"
            "excluded-modules = []\n"
            f"test-command = {json.dumps(f'{sys.executable} {RUNNER}')}\n\n"
            "[cosmic-ray.distributor]\nname = \"local\"\n", encoding="utf-8")
        session = base / "session.sqlite"
        subprocess.run([*COSMIC_RAY, "init", config.name, session.name], cwd=base, env=env, check=True,
                       capture_output=True)
        everything = population_of(session, base)
        lines_of = {m: (base / m).read_text(encoding="utf-8").splitlines() for m in modules}  # before any mutation
        spans = {m: annotation_spans("\n".join(lines_of[m]) + "\n") for m in modules}
        population = [m for m in everything if not in_annotation(m, spans[m.module])]
        if args.ids:
            wanted = set(args.ids)
            sample = [m for m in population if m.id in wanted][:args.sample]
            missing = wanted - {m.id for m in population}
            if missing:
                say(f"not in the population (the line moved or changed?): {sorted(missing)}")
        else:
            sample = draw_sample(population, args.sample, args.seed)
        say(f"{len(everything)} mutants in {', '.join(modules)}, {len(everything) - len(population)} of them in "
            f"annotations (equivalent, left out); sampled {len(sample)} of {len(population)} (seed {args.seed})")

        selected: dict[str, dict[str, list[str]] | None] = {}
        whole = 0
        if args.select == "coverage":
            by_module, items = read_coverage(cover_dir, [name for name, *_ in stage_list], base)
            left_out = set(auto_deselected)
            items = {stage: [i for i in nodes if i not in left_out] for stage, nodes in items.items()}
            whole = sum(map(len, items.values()))
            table: dict[str, dict[str, Any]] = {}
            for m in sample:
                sel = select_tests(by_module.get(m.module, {}), key_lines("\n".join(lines_of[m.module]) + "\n", m.line),
                                   items)
                selected[m.id] = sel
                table.setdefault(m.module, {})[str(m.line)] = "all" if sel is None else sel
            (base / "_mutation_selection.json").write_text(json.dumps(table), encoding="utf-8")
            (base / "_mutation_originals.json").write_text(
                json.dumps({m: (base / m).read_text(encoding="utf-8") for m in modules}), encoding="utf-8")
            sizes = [whole if v is None else sum(map(len, v.values())) for v in selected.values()]
            say(f"tests per mutant (of {whole}): {sum(v is None for v in selected.values())} mutants run every test "
                f"(import-time lines), {sum(1 for v in selected.values() if v == {})} run none (no test executes "
                f"the line), median {sorted(sizes)[len(sizes) // 2] if sizes else 0}")

        shards = deal(sample, args.jobs)
        places = [base] + [make_scratch(base) for _ in shards[1:]]  # copied before any is marked
        scratches.extend(places[1:])
        procs = []
        for where, shard in zip(places, shards):
            keep_only(where / session.name, {m.job_id for m in shard})
            log = open(where / "exec.log", "w")
            procs.append((where, log, subprocess.Popen([*COSMIC_RAY, "exec", config.name, session.name], cwd=where,
                                                       env=scratch_env(where), stdout=log, stderr=subprocess.STDOUT)))
        done_before = -1
        exec_start = time.monotonic()
        stopped = False
        while any(p.poll() is None for _, _, p in procs):
            time.sleep(5)
            if args.budget and time.monotonic() - exec_start > args.budget:
                say(f"--budget of {args.budget:.0f}s spent: stopping; the mutants not run yet are reported as not run")
                for _, _, p in procs:
                    stop_tree(p)
                stopped = True
                break
            done = 0
            for where, _, _ in procs:
                try:
                    con = sqlite3.connect(f"file:{where / session.name}?mode=ro", uri=True, timeout=1)
                    done += con.execute("SELECT count(*) FROM work_results WHERE worker_outcome != 'SKIPPED'")\
                        .fetchone()[0]
                    con.close()
                except sqlite3.Error:
                    pass
            if done != done_before:
                say(f"{done}/{len(sample)} mutants run")
                done_before = done
        for where, log, p in procs:
            log.close()
            if p.returncode != 0 and not stopped:
                print((where / "exec.log").read_text()[-3000:], file=sys.stderr)
                raise SystemExit(f"mutation.py: cosmic-ray exec failed in {where}")

        results = merge_results([where / session.name for where, _, _ in procs])
        rows = []
        counts: dict[str, int] = {}
        warnings = []
        for m in sample:
            src = lines_of[m.module]
            code = src[m.line - 1] if m.line <= len(src) else ""
            res = results.get(m.job_id)
            raw = outcome_of(res) if res is not None else "not-run"
            disp = dispositions.get(m.id)
            outcome, warning = classify(raw, disp, code)
            if warning:
                warnings.append(f"{m.id}: {warning}")
            counts[outcome] = counts.get(outcome, 0) + 1
            row: dict[str, Any] = {"id": m.id, "module": m.module, "line": m.line, "operator": m.operator,
                                   "occurrence": m.occurrence, "code": code.strip(), "outcome": outcome,
                                   "raw_outcome": raw,
                                   "tests_selected": ("all" if selected.get(m.id, None) is None
                                                      else sum(map(len, selected[m.id].values()))),
                                   "diff": (res.diff if res is not None else None)}
            if outcome in ("killed", "timeout"):
                row["killer"] = killer_of(res.output)
            if disp is not None:
                row["disposition"] = disp
            if outcome == "incompetent" and res is not None:
                row["output"] = (res.output or "")[-1500:]
            rows.append(row)
        ops: dict[str, int] = {}
        for m in population:
            fam = re.sub(r"_.*$", "", m.operator)
            ops[fam] = ops.get(fam, 0) + 1
        doc = {
            "game": gid,
            "command": command,
            "tool": f"cosmic-ray {cosmic_ray_version()}",
            "modules": modules,
            "population": len(population),
            "left_out_in_annotations": len(everything) - len(population),
            "population_by_operator": dict(sorted(ops.items())),
            "sample": len(sample),
            "seed": args.seed,
            "sampling": ("the ids given (--ids)" if args.ids
                         else "random.Random(seed).sample(all mutants sorted by id, n)"),
            "killers": [{"stage": name, "pytest": [*opts, *paths], "env": e} for name, opts, paths, e in stage_list],
            "selection": ("coverage: per mutant, the tests that execute its line in the baseline (coverage.py "
                          "dynamic contexts); import-time lines run every test" if args.select == "coverage"
                          else "all: every killer test for every mutant"),
            "tests_in_killer_stages": whole or None,
            "coverage_version": coverage_version() if args.select == "coverage" else None,
            "deselected": list(args.deselect),
            "deselected_as_failing_on_the_baseline": auto_deselected,
            "dispositions_file": args.equivalent or None,
            "baseline_seconds": round(baseline, 1),
            "timeout_seconds": timeout,
            "wall_seconds": round(time.monotonic() - t0, 1),
            "budget_seconds": args.budget,
            "stopped_by_budget": stopped,
            "counts": dict(sorted(counts.items())),
            "score": score(counts),
            "warnings": warnings,
            "mutants": rows,
        }
        write_json_atomic(out_path, doc)
        s = doc["score"]
        print(json.dumps({k: doc[k] for k in ("game", "command", "population", "sample", "counts", "score",
                                             "warnings")}, indent=1))
        for row in rows:
            if row["outcome"] == "survived":
                print(f"SURVIVED {row['id']}\n    {row['code']}\n{row['diff']}")
        say(f"score {s['killed']}/{s['denominator']}; wrote {out_path}")
        return 0
    finally:
        if args.keep:
            print("scratch copies kept: " + " ".join(map(str, scratches)), file=sys.stderr)
        else:
            for d in scratches:
                shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
