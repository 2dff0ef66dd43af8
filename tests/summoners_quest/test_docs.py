"""The rules document: its card list matches the data, and every ledger entry names a real test."""

import importlib
import re
from pathlib import Path

from boardlab.games.summoners_quest.content import card_table, default_cards_path, load_cards

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "summoners-quest.md"


def test_card_list_is_generated_from_the_data():
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- cards:begin -->\n", 1)[1].split("<!-- cards:end -->", 1)[0]
    assert block == card_table(load_cards(default_cards_path()))


def test_every_ledger_entry_names_an_existing_test():
    text = DOC.read_text(encoding="utf-8")
    ledger = text.split("## Interpretation ledger", 1)[1].split("## Variants", 1)[0]
    entries = [line for line in ledger.splitlines() if line.startswith("- **")]
    assert len(entries) >= 40
    for entry in entries:
        refs = re.findall(r"`tests/summoners_quest/(\w+)\.py::(\w+)`", entry)
        assert refs, entry
        for module, name in refs:
            mod = importlib.import_module(f"tests.summoners_quest.{module}")
            assert callable(getattr(mod, name, None)), f"{module}::{name}"
