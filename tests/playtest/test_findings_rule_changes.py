"""scripts/findings.py --rule-changes: one rule flipped at a time, effects with intervals, Holm, and an honest
agrees / not shown / no claim column (issue 19)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_findings():
    spec = importlib.util.spec_from_file_location("findings_script", ROOT / "scripts" / "findings.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_rule_change_table_on_a_planted_effect(tmp_path, monkeypatch):
    f = load_findings()
    monkeypatch.setattr(f, "ROOT", tmp_path)
    monkeypatch.setattr(f, "code_key", lambda game_id: "test")
    monkeypatch.setitem(f.RULE_CHANGES, "coin", {
        "base": {"variant": "default", "agents": ["random"]},
        "roles": [],
        "changes": [
            ("Seat 0 wins 95%", {"bias": 95}, "they said seat 0 gains", ("seat:0", +1)),
            ("Seat 0 wins 79%", {"bias": 79}, "they said seat 0 gains", ("seat:0", +1)),
            ("Seat 0 wins 20%", {"bias": 20}, "no claim here", None),
            ("Seat 0 wins 30%", {"bias": 30}, "they said seat 0 gains", ("seat:0", +1)),
        ],
        "not_available": [("An option this branch lacks", "another branch adds it")],
    })
    summary, rows = f.rule_change_rows("coin", 200, 1, 1)
    block = f.rule_change_block("coin", summary, rows)
    lines = [line for line in block.splitlines() if line.startswith("| Seat 0 wins") or line.startswith("| An option")]
    assert lines[0].endswith("| **agrees** |")          # 80% -> 95%: a real effect in the claimed direction
    # 80% -> 79%: noise is not a finding, and the row says what the table could have seen
    assert "| not shown (no significant effect; could see ±" in lines[1] and lines[1].endswith(" point) |")
    assert lines[2].endswith("| no measurable claim |")
    assert lines[3].endswith("| **disagrees** |")
    assert lines[4].endswith("| not run on this branch |")
    assert "seat 0: +" in lines[0] and "[" in lines[0] and "p = " in lines[0]
    assert summary["tests"] == 7  # 3 claimed seat-0 effects + 4 lengths (no role to report for the unclaimed row); Holm across all
    path = tmp_path / "doc.md"
    path.write_text("# Findings\n\nhand-written text\n")
    f.write_block(path, f.RC_START, f.RC_END, block)
    f.write_block(path, f.RC_START, f.RC_END, block)  # rewrites in place, keeps the text
    text = path.read_text()
    assert text.count(f.RC_START) == 1 and "hand-written text" in text


def test_every_game_lists_its_designers_changes_with_quotes():
    f = load_findings()
    for game_id in ("blackfire", "wizards-labyrinth", "dungeons-jewel"):
        changes = f.RULE_CHANGES[game_id]["changes"]
        assert len(changes) >= 2 and all(said for _, _, said, *_ in changes)
