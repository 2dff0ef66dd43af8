"""The seed concordance (scripts/concordance.py): every seed sentence is covered by a row, every quote is in
its sentences, every code reference resolves, every rule row has a marked test, every ledger entry exists,
and each rules document carries the current table. Skips where ../shared/seeds is absent (a user's clone)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("concordance_script", ROOT / "scripts" / "concordance.py")
concordance = importlib.util.module_from_spec(_spec)
sys.modules["concordance_script"] = concordance
_spec.loader.exec_module(concordance)


def test_splitter_ends_sentences_and_keeps_list_markers_and_abbreviations():
    split = concordance.split_sentences
    assert split("") == []
    assert split("   ") == []
    assert split("One. Two! Three? Four") == ["One.", "Two!", "Three?", "Four"]
    assert split("1.\tRoll d4. Then move.") == ["1. Roll d4.", "Then move."]
    assert split("iv. If not holding the orb (i.e. free), revive.") == ["iv. If not holding the orb (i.e. free), revive."]
    assert split("He said \"stop.\" Then left.") == ['He said "stop."', "Then left."]
    assert split("He starts first. If no one can decide") == ["He starts first.", "If no one can decide"]
    assert split("3.5 damage") == ["3.5 damage"]


def test_a_missing_row_a_bad_quote_and_an_unmarked_rule_are_reported(tmp_path, monkeypatch):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / concordance.SEED_FILES["blackfire"]).write_text("Story here. Roll a d6.\nMore story.\n", encoding="utf-8")
    csv = tmp_path / "blackfire.concordance.csv"
    csv.write_text("id,to,kind,versions,quote,ref,note\n"
                   "1.1,,not-a-rule,,Story here,story,\n"
                   "1.2,,rule,final,roll a d7,boardlab.games.blackfire.rules:nope,\n", encoding="utf-8")
    monkeypatch.setattr(concordance, "concordance_path", lambda game: csv)
    report, rows = concordance.check_game("blackfire", {}, seeds)
    text = "\n".join(report.problems)
    assert "quote 'roll a d7' is not in its sentences" in text
    assert "does not resolve" in text
    assert "sentence 2.1 is not covered" in text
    assert "rule row without a test" in text
    assert report.sentences == 3


SEEDS = concordance.seeds_dir()


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"no seed documents at {SEEDS}")
@pytest.mark.parametrize("game", concordance.all_games())  # the seeds and designers' own rulebooks
def test_every_seed_sentence_is_accounted_for(game):
    marks = concordance.marked_tests()
    report, rows = concordance.check_game(game, marks)
    _, sentences = concordance.seed_sentences(game)
    if rows and not concordance.table_is_current(game, concordance.render(game, rows, sentences)):
        report.problems.append(f"docs/rules/{game}.md: stale concordance table (python scripts/concordance.py --write)")
    assert not report.problems, "\n".join(report.problems[:40]) + f"\n... {len(report.problems)} problem(s)"


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"no seed documents at {SEEDS}")
def test_every_seed_mark_names_a_row():
    known = {row.full_id for game in concordance.all_games() for row in concordance.read_rows(game)}
    dangling = {mark: tests for mark, tests in concordance.marked_tests().items() if mark not in known}
    assert not dangling, dangling
