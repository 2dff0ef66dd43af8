"""The pure parts of ``scripts/mutation.py`` (issue 42, part 2): stable mutant ids, the seeded uniform
sample, the score and its Wilson interval, dispositions.  No mutant is run here."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutation_script", ROOT / "scripts" / "mutation.py")
mutation = importlib.util.module_from_spec(_spec)
sys.modules.setdefault(_spec.name, mutation)  # its dataclass looks itself up there
_spec.loader.exec_module(mutation)

RULES = "boardlab/games/dungeons_jewel/rules.py"
SPECS = [
    # (module, start, end, operator, occurrence, job id)
    (RULES, (10, 20), (10, 21), "core/ReplaceComparisonOperator_Lt_Gt", 3, "a"),
    (RULES, (10, 8), (10, 9), "core/ReplaceComparisonOperator_Lt_Gt", 2, "b"),
    (RULES, (10, 8), (10, 9), "core/NumberReplacer", 7, "c"),
    (RULES, (10, 8), (10, 9), "core/NumberReplacer", 6, "d"),
    (RULES, (12, 4), (12, 9), "core/AddNot", 0, "e"),
    ("boardlab/games/dungeons_jewel/board.py", (3, 0), (3, 1), "core/AddNot", 0, "f"),
]


def _population(n: int) -> list:
    return mutation.assign_ids((RULES, (i + 1, 0), (i + 1, 1), "core/AddNot", i, str(i)) for i in range(n))


def test_ids_name_module_line_operator_and_rank_on_the_line():
    by_job = {m.job_id: m.id for m in mutation.assign_ids(SPECS)}
    assert by_job["b"] == f"{RULES}:10:core/ReplaceComparisonOperator_Lt_Gt:0"  # left of "a" on line 10
    assert by_job["a"] == f"{RULES}:10:core/ReplaceComparisonOperator_Lt_Gt:1"
    assert by_job["d"] == f"{RULES}:10:core/NumberReplacer:0"  # same position: Cosmic Ray's order (+1, -1)
    assert by_job["c"] == f"{RULES}:10:core/NumberReplacer:1"
    assert by_job["e"] == f"{RULES}:12:core/AddNot:0"
    assert by_job["f"] == "boardlab/games/dungeons_jewel/board.py:3:core/AddNot:0"


def test_ids_do_not_depend_on_the_order_or_the_job_ids_cosmic_ray_gives():
    first = [(m.id, m.occurrence) for m in mutation.assign_ids(SPECS)]
    shuffled = SPECS[:]
    random.Random(3).shuffle(shuffled)
    renamed = [s[:5] + (f"job{i}",) for i, s in enumerate(shuffled)]
    assert [(m.id, m.occurrence) for m in mutation.assign_ids(renamed)] == first
    assert len({i for i, _ in first}) == len(SPECS)


def test_the_sample_is_seeded_and_drawn_without_replacement():
    pop = _population(50)
    a = mutation.draw_sample(pop, 10, seed=1)
    assert [m.id for m in a] == [m.id for m in mutation.draw_sample(list(reversed(pop)), 10, seed=1)]
    assert len({m.id for m in a}) == 10
    assert [m.id for m in a] != [m.id for m in mutation.draw_sample(pop, 10, seed=2)]
    assert [m.id for m in mutation.draw_sample(pop, 80, seed=1)] == [m.id for m in pop]


def test_the_sample_is_uniform_over_the_population():
    pop = _population(10)
    seeds = 3000
    counts = Counter(m.id for s in range(seeds) for m in mutation.draw_sample(pop, 3, seed=s))
    expected = seeds * 3 / 10  # 900 each; binomial sd about 25
    assert len(counts) == 10
    assert all(abs(c - expected) < 100 for c in counts.values()), counts
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 27.9  # chi-square, 9 degrees of freedom, p = 0.001


def test_deal_is_round_robin_and_never_empty():
    assert mutation.deal(list(range(5)), 2) == [[0, 2, 4], [1, 3]]
    assert mutation.deal([1], 4) == [[1]]


def _wilson_by_hand(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_the_score_leaves_out_equivalent_and_unrun_mutants_and_counts_timeouts_as_killed():
    s = mutation.score({"killed": 40, "timeout": 5, "survived": 5, "equivalent": 3, "no-test": 1})
    assert (s["killed"], s["denominator"]) == (45, 50)
    assert s["score"] == pytest.approx(0.9)
    assert s["meets_target"] is True
    lo, hi = _wilson_by_hand(45, 50)
    assert s["wilson95"] == [pytest.approx(lo, abs=1e-9), pytest.approx(hi, abs=1e-9)]
    assert 0.78 < lo < 0.79 and 0.95 < hi < 0.96
    assert mutation.score({"killed": 8, "survived": 2})["meets_target"] is False
    assert mutation.score({"equivalent": 2})["score"] is None


def test_an_equivalent_disposition_applies_only_to_a_survivor_whose_line_is_unchanged():
    d = {"disposition": "equivalent", "why": "x <= 0 and x < 1 agree on ints", "code": "if x <= 0:"}
    assert mutation.classify("survived", d, "    if x <= 0:") == ("equivalent", None)
    outcome, warning = mutation.classify("survived", d, "    if x < 0:")
    assert outcome == "survived" and "stale" in warning
    outcome, warning = mutation.classify("killed", d, "if x <= 0:")
    assert outcome == "killed" and "kill" in warning
    still_open = {"disposition": "open", "code": "if x <= 0:"}
    assert mutation.classify("survived", still_open, "if x <= 0:") == ("survived", None)
    assert mutation.classify("survived", None, "anything") == ("survived", None)


def test_dispositions_file_is_checked(tmp_path):
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"mutants": {"m:1:core/AddNot:0": {"disposition": "equivalent"}}}))
    with pytest.raises(ValueError, match="why"):
        mutation.load_dispositions(path)
    path.write_text(json.dumps({"mutants": {"m:1:core/AddNot:0": {"disposition": "equivalent", "why": "dead code"}}}))
    assert mutation.load_dispositions(path)["m:1:core/AddNot:0"]["why"] == "dead code"
    assert mutation.load_dispositions(tmp_path / "absent.json") == {}


def test_the_repository_dispositions_file_is_valid_and_keyed_by_ids():
    disp = mutation.load_dispositions(ROOT / mutation.DEFAULT_DISPOSITIONS)
    for key, d in disp.items():
        module, line, operator, k = key.rsplit(":", 3)
        assert (ROOT / module).is_file() and line.isdigit() and operator.startswith("core/") and k.isdigit(), key
        assert d["disposition"] in ("equivalent", "killed", "ledger", "open"), key
        assert d.get("code"), key


def test_the_killer_is_read_from_pytest_output():
    out = "...F\n=== short test summary info ===\nFAILED tests/a/test_b.py::test_c[x-1] - assert 1 == 2\n"
    assert mutation.killer_of(out) == "tests/a/test_b.py::test_c[x-1]"
    assert mutation.killer_of("timeout") == "timeout"
    assert mutation.killer_of("boom\nmutation-killers: stage game failed (exit 2)\n") == "stage game"
    assert mutation.killer_of("") is None


def test_rules_modules_leave_out_declaration_view_scene_features_agents_and_content():
    names = [p.name for p in mutation.rules_modules(ROOT / "boardlab" / "games" / "armies")]
    assert {"rules.py", "combat.py", "moves.py", "cards.py"} <= set(names)
    assert not {"game.py", "view.py", "scene.py", "features.py", "agents.py", "content.py", "__init__.py"} & set(names)
    names = [p.name for p in mutation.rules_modules(ROOT / "boardlab" / "games" / "dungeons_jewel")]
    assert "rules.py" in names and "board.py" in names
    assert not {"core.py", "properties.py"} & set(names)  # the compiled core's glue and the rule properties


def test_results_are_written_atomically(tmp_path):
    path = tmp_path / "out" / "r.json"
    mutation.write_json_atomic(path, {"a": 1})
    mutation.write_json_atomic(path, {"a": 2})
    assert json.loads(path.read_text()) == {"a": 2}
    assert [p.name for p in path.parent.iterdir()] == ["r.json"]


def test_mutants_inside_annotations_are_recognised_only_where_annotations_are_never_evaluated():
    src = ("from __future__ import annotations\n"
           "def f(a: int | None, *b: list[int], c: int = 1 + 2) -> dict[str, int] | None:\n"
           "    x: int | str = a or 0\n"
           "    return {'é': x | 1}\n")
    spans = mutation.annotation_spans(src)

    def at(line, col, end):
        return mutation.Mutant("m", "m.py", line, col, (line, end), "core/ReplaceBinaryOperator_BitOr_Add", 0)

    assert mutation.in_annotation(at(2, 13, 14), spans)  # a: int | None
    assert mutation.in_annotation(at(2, 70, 71), spans)  # -> ... | None
    assert mutation.in_annotation(at(3, 11, 12), spans)  # x: int | str
    assert not mutation.in_annotation(at(2, 47, 48), spans)  # the default 1 + 2 is evaluated
    assert not mutation.in_annotation(at(4, 19, 20), spans)  # x | 1, after a non-ASCII character
    assert mutation.annotation_spans(src.split("\n", 1)[1]) == []  # evaluated without the __future__ import


def test_rescoring_applies_the_current_dispositions_without_running_anything():
    rows = [{"id": f"m.py:{i}:core/AddNot:0", "code": f"line {i}", "outcome": o}
            for i, o in enumerate(["killed", "timeout", "survived", "survived", "survived", "equivalent"])]
    doc = {"game": "g", "mutants": rows}
    disp = {"m.py:2:core/AddNot:0": {"disposition": "equivalent", "why": "dead", "code": "line 2"},
            "m.py:3:core/AddNot:0": {"disposition": "killed", "by": "tests/x.py::t", "code": "line 3"},
            "m.py:4:core/AddNot:0": {"disposition": "equivalent", "why": "dead", "code": "a line since changed"}}
    doc["mutants"].append({"id": "boardlab/games/g/core.py:1:core/AddNot:0", "code": "x", "outcome": "survived"})
    out = mutation.rescore(doc, disp, "cmd")
    # row 5 was equivalent by an old disposition that is gone: a survivor again
    assert out["counts"] == {"equivalent": 1, "killed": 1, "out-of-scope": 1, "survived": 3, "timeout": 1}
    assert (out["score"]["killed"], out["score"]["denominator"]) == (2, 5)
    assert (out["score_with_added_tests"]["killed"], out["score_with_added_tests"]["denominator"]) == (3, 5)
    assert any("stale" in w for w in out["warnings"]) and out["rescored"] == "cmd"


# --- per-mutant test selection by coverage (no mutant is run; coverage.py only for the last test) -------------

SELECT_SOURCE = '''\
LIMIT = 3


class Rules:
    SIZE = LIMIT + 1

    @staticmethod
    def step(x, y):
        if (x > 0 and
                y < LIMIT):
            total = (x +
                     y)
            return total
        try:
            return x // y
        except ZeroDivisionError:
            return 0

    def outer(self):
        @staticmethod
        def inner(z=LIMIT - 1):
            return z * 2
        return inner()
'''


def test_key_lines_send_import_time_lines_to_every_test():
    src = SELECT_SOURCE
    for line in (1, 5, 7, 8, 19):  # a constant, a class attribute, a decorator, a def header, a method header
        assert mutation.key_lines(src, line) is None, line


def test_key_lines_of_a_statement_in_a_function_cover_its_continuation_lines():
    src = SELECT_SOURCE
    assert mutation.key_lines(src, 11) == (11, 12)  # a simple statement: all its lines
    assert mutation.key_lines(src, 12) == (11, 12)
    assert mutation.key_lines(src, 13) == (13,)
    assert mutation.key_lines(src, 9) == (9,)  # an `if` header: from its first line to the mutated one
    assert mutation.key_lines(src, 10) == (9, 10)
    assert mutation.key_lines(src, 16) == (14, 15, 16)  # an except clause: from its `try`
    assert mutation.key_lines(src, 17) == (17,)
    assert mutation.key_lines(src, 20) == (20,)  # a nested def's decorator and header run when the outer
    assert mutation.key_lines(src, 21) == (20, 21)  # function does
    assert mutation.key_lines(src, 22) == (22,)


ITEMS = {
    "game": ["tests/g/test_a.py::t1", "tests/g/test_a.py::t2", "tests/g/test_b.py::t3", "tests/g/test_b.py::t4"],
    "conformance": ["tests/conformance/test_c.py::t5[x]", "tests/conformance/test_c.py::t5[y]"],
}


def test_a_test_that_executes_the_line_is_selected_in_collection_order():
    by_line = {11: {"game|run|tests/g/test_b.py::t4", "conformance|run|tests/conformance/test_c.py::t5[y]"},
               12: {"game|run|tests/g/test_a.py::t1"}}
    assert mutation.select_tests(by_line, (11, 12), ITEMS) == {
        "game": ["tests/g/test_a.py::t1", "tests/g/test_b.py::t4"],
        "conformance": ["tests/conformance/test_c.py::t5[y]"]}
    assert mutation.select_tests(by_line, (12,), ITEMS) == {"game": ["tests/g/test_a.py::t1"]}


def test_a_line_no_test_executes_selects_nothing_and_import_time_lines_select_everything():
    by_line = {11: {"game|run|tests/g/test_b.py::t4"}}
    assert mutation.select_tests(by_line, (30,), ITEMS) == {}
    assert mutation.select_tests(by_line, None, ITEMS) is None


def test_fixtures_select_their_file_and_collection_or_no_context_selects_everything():
    setup = {5: {"game|setup|tests/g/test_b.py::t3"}}
    assert mutation.select_tests(setup, (5,), ITEMS) == {"game": ["tests/g/test_b.py::t3", "tests/g/test_b.py::t4"]}
    assert mutation.select_tests({5: {"game|collect|tests/g/test_a.py"}}, (5,), ITEMS) is None
    assert mutation.select_tests({5: {""}}, (5,), ITEMS) is None
    assert mutation.select_tests({5: {"other|run|tests/x.py::t"}}, (5,), ITEMS) is None  # an unknown stage


def test_the_coverage_plugin_maps_lines_to_the_tests_that_run_them(tmp_path):
    pytest.importorskip("coverage")
    import os
    import subprocess

    (tmp_path / "rulesmod.py").write_text("def double(x):\n    return 2 * x\n\n\ndef half(x):\n    return x // 2\n")
    (tmp_path / "test_it.py").write_text(
        "import rulesmod\n\n\ndef test_double():\n    assert rulesmod.double(2) == 4\n\n\n"
        "def test_nothing():\n    assert True\n")
    (tmp_path / "_mutation_coverage.py").write_text(mutation.COVERAGE_PLUGIN_TEXT.format())
    cover = tmp_path / "cover"
    cover.mkdir()
    env = dict(os.environ, PYTHONPATH=str(tmp_path), MUTATION_COVER_STAGE="game",
               MUTATION_COVER_FILES=json.dumps([str(tmp_path / "rulesmod.py")]),
               MUTATION_COVER_DATA=str(cover / "game.coverage"), MUTATION_COVER_ITEMS=str(cover / "game.items.json"))
    env.pop("PYTEST_ADDOPTS", None)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "_mutation_coverage",
                        "test_it.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    by_module, items = mutation.read_coverage(cover, ["game"], tmp_path)
    assert items == {"game": ["test_it.py::test_double", "test_it.py::test_nothing"]}
    lines = by_module["rulesmod.py"]
    src = (tmp_path / "rulesmod.py").read_text()
    assert mutation.select_tests(lines, mutation.key_lines(src, 2), items) == {"game": ["test_it.py::test_double"]}
    assert mutation.select_tests(lines, mutation.key_lines(src, 6), items) == {}  # half() is never called
    assert mutation.select_tests(lines, mutation.key_lines(src, 1), items) is None  # a def runs at import


def test_shard_results_merge_without_the_other_shards_skip_marks(tmp_path):
    """With ``--jobs 2`` each shard's session marks the other shard's mutants SKIPPED.  The merge once let
    the second shard's marks replace the first shard's results, so half of a run read as 'incompetent'
    (seed 3 of the Dungeon's Jewel: 20 of 40); every result must survive the merge."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import MutationSpec, TestOutcome, WorkerOutcome, WorkItem, WorkResult

    jobs = ["a", "b", "c", "d"]
    shards = mutation.deal(jobs, 2)  # [a, c] and [b, d]
    sessions = []
    for n, mine in enumerate(shards):
        session = tmp_path / f"shard{n}.sqlite"
        with use_db(str(session), WorkDB.Mode.create) as db:
            for j in jobs:
                db.add_work_item(WorkItem(job_id=j, mutations=(MutationSpec(
                    module_path=RULES, operator_name="core/AddNot", occurrence=0, start_pos=(1, 0), end_pos=(1, 1)),)))
        mutation.keep_only(session, set(mine))
        with use_db(str(session), WorkDB.Mode.open) as db:
            for j in mine:
                db.set_result(j, WorkResult(worker_outcome=WorkerOutcome.NORMAL, output="",
                                            test_outcome=TestOutcome.KILLED if j in "ab" else TestOutcome.SURVIVED))
        sessions.append(session)
    merged = mutation.merge_results(sessions)
    assert {j: mutation.outcome_of(r) for j, r in merged.items()} == {
        "a": "killed", "b": "killed", "c": "survived", "d": "survived"}
    # the old merge: the last shard's SKIPPED marks won for the first shard's mutants
    old: dict = {}
    for s in sessions:
        with use_db(str(s), WorkDB.Mode.open) as db:
            old.update(dict(db.results))
    assert mutation.outcome_of(old["a"]) == "incompetent"
