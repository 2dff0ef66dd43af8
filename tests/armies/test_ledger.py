"""The Armies interpretation ledger is numbered without gaps, and every "ledger N" citation names an entry (issue 29 item 12)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "armies.md"


def _entries() -> list[int]:
    text = DOC.read_text(encoding="utf-8")
    section = re.search(r"^## Interpretation ledger\s*$(.*?)(?=^## |\Z)", text, re.M | re.S).group(1)
    return [int(n) for n in re.findall(r"^(\d+)\. ", section, re.M)]


def test_ledger_is_numbered_without_gaps():
    numbers = _entries()
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_ledger_citation_names_an_entry():
    entries = set(_entries())
    files = [DOC, *sorted((ROOT / "boardlab" / "games" / "armies").rglob("*.py")),
             *sorted((ROOT / "tests" / "armies").rglob("*.py"))]
    cited = {}
    for path in files:
        for n in re.findall(r"\bledger (?:entry |entries )?(\d+)", path.read_text(encoding="utf-8")):
            cited.setdefault(int(n), path.name)
    assert cited, "no citation found: the pattern is wrong"
    missing = {n: where for n, where in cited.items() if n not in entries}
    assert not missing
