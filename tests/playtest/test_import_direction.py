"""The playtest lab's modules import in one direction (issue 46, section 5): the contract holds on the tree, and the
old circle (the report drawing the luck and skill sections from the modules that import it to write) breaks it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_import_contracts import ROOT, lint

CONTRACT = "The playtest lab's modules import in one direction"


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    shutil.copytree(ROOT / "boardlab", root / "boardlab", ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.txt", "*.deck"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def test_the_contract_is_declared_and_kept(copy: Path):
    assert CONTRACT in (ROOT / "pyproject.toml").read_text()
    out = lint(copy)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{CONTRACT} (no import cycles) KEPT" in out.stdout


@pytest.mark.parametrize(("module", "line"), [
    ("playtest/report.py", "def _luck():\n    from .luck import lines\n    return lines"),  # the old report -> luck edge
    ("playtest/sections.py", "from . import skill"),  # the sections' module reaching back up
])
def test_a_back_edge_in_the_lab_breaks_it(copy: Path, module: str, line: str):
    path = copy / "boardlab" / module
    original = path.read_text()
    try:
        path.write_text(original + "\n" + line + "\n")
        out = lint(copy)
    finally:
        path.write_text(original)
    assert out.returncode != 0
    assert CONTRACT in out.stdout.split("Broken contracts")[-1], out.stdout
