"""The import contracts of docs/architecture.md (pyproject.toml, ``[tool.importlinter]``).

scripts/test.sh runs ``lint-imports`` before the suite; these tests show the
contracts hold on the tree and that each kind of back edge breaks them (run on
a copy of the package with one import added).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())",
         "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )


def test_the_contracts_hold():
    out = lint(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    shutil.copytree(ROOT / "boardlab", root / "boardlab", ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.txt", "*.deck"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # a game's rules reaching for its view (the old Armies/Summoner's Quest shape)
        ("games/armies/rules.py", "from .view import ArmiesView", "rules import no view"),
        # even for annotations only
        ("games/dungeons_jewel/scene.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import DungeonsJewel",
         "Game packages"),
        # features must not depend on the view above them
        ("games/blackfire/view.py", "from .features import BlackfireFeatures", "Game packages"),
        # the engine building agents (the old engine/runner.py)
        ("engine/state.py", "import boardlab.agents", "Layers"),
        # a game importing the agents layer instead of the engine's interface
        ("games/wizards_labyrinth/agents.py", "from boardlab.agents.base import BaseAgent", "Layers"),
        # a cycle inside the engine (the old evaluation -> game edge)
        ("engine/files.py", "from . import game", "No import cycles"),
    ],
)
def test_a_back_edge_breaks_a_contract(copy: Path, module: str, line: str, broken: str):
    path = copy / "boardlab" / module
    original = path.read_text()
    try:
        path.write_text(original + "\n" + line + "\n")
        out = lint(copy)
    finally:
        path.write_text(original)
    assert out.returncode != 0
    assert broken in out.stdout.split("Broken contracts")[-1], out.stdout
