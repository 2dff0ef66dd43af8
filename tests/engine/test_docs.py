"""The Python examples in docs/api.md and README.md run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("doc", ["docs/api.md", "README.md"])
def test_python_examples_run(doc, capsys):
    blocks = python_blocks(ROOT / doc)
    assert blocks, f"{doc} has no Python example"
    for code in blocks:
        exec(compile(code, doc, "exec"), {"__name__": "__doc_example__"})
