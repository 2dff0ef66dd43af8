"""Nothing lost (issue 45, section 1): every file is replaced whole or not at all, outputs that cannot be files are
refused before the work, and names and foreign results the commands cannot use are one-line errors."""

from __future__ import annotations

import errno
import json
import os
import stat

import pytest

from boardlab.engine import files


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def _one_error_line(r) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("boardlab: error: "), r.stderr
    return lines[0]


def _save(run, name="s.json", seed=4):
    r = run("play", "toy", "--seed", seed, "--seat", "1=random", "--seat", "2=random", "--save", name)
    assert r.exit_code == 0, r.output
    return r


# -- a full disk during a save -------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["fsync", "replace", "write"])
def test_a_save_over_an_old_one_on_a_full_disk_keeps_the_old_one(run, tmp_path, monkeypatch, where):
    # the issue: 'play --save' over an existing save on a full disk left a truncated 8,192-byte file and exit 2
    _save(run, "s.json", seed=4)
    old = (tmp_path / "s.json").read_bytes()
    monkeypatch.setattr(os, where, _enospc)
    r = run("play", "toy", "--seed", "9", "--seat", "1=random", "--seat", "2=random", "--save", "s.json")
    monkeypatch.undo()
    line = _one_error_line(r)
    assert "No space left on device" in line and "the old file is unchanged" in line
    assert (tmp_path / "s.json").read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]  # no temporary file left behind


def test_atomic_write_replaces_whole_and_cleans_up_on_failure(tmp_path, monkeypatch):
    target = tmp_path / "a" / "b.json"
    files.atomic_write(target, '{"v": 1}')  # missing folders are made
    assert target.read_text() == '{"v": 1}'
    files.atomic_write(target, b'{"v": 2}')
    assert target.read_text() == '{"v": 2}'
    monkeypatch.setattr(os, "replace", _enospc)
    with pytest.raises(files.OutputError, match="No space left.*the old file is unchanged"):
        files.atomic_write(target, "x" * 100_000, "summary")
    monkeypatch.undo()
    assert target.read_text() == '{"v": 2}' and os.listdir(target.parent) == ["b.json"]


def test_an_interrupt_during_a_write_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "r.json"
    target.write_text("old")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.atomic_write(target, "new")
    monkeypatch.undo()
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["r.json"]


def test_parquet_parts_and_manifests_are_written_whole(tmp_path, monkeypatch):
    from boardlab.engine.errors import BoardlabError
    from boardlab.playtest.store import RunDir

    run = RunDir(tmp_path / "run")
    run.write_manifest({"config": {"a": 1}})
    monkeypatch.setattr(os, "fsync", _enospc)
    with pytest.raises(BoardlabError, match="run manifest.*the old file is unchanged"):
        run.write_manifest({"config": {"a": 2}})
    with pytest.raises(BoardlabError, match="results part"):
        run.write_part([_row(0)])
    monkeypatch.undo()
    assert run.read_manifest() == {"config": {"a": 1}}
    assert run.read_parts() == [] and not [p for p in (tmp_path / "run").rglob("*.tmp")]
    run.write_part([_row(0), _row(1)])
    assert [r["index"] for r in run.read_parts()] == [0, 1]


def test_an_appended_log_line_is_whole_or_absent(tmp_path, monkeypatch):
    log = tmp_path / "arena.jsonl"
    files.append_lines(log, ['{"arena": 1}'])
    files.append_lines(log, ['{"order": 0}', '{"order": 1}'])
    before = log.read_bytes()
    monkeypatch.setattr(os, "fsync", _enospc)
    with pytest.raises(files.OutputError, match="earlier lines are unchanged"):
        files.append_lines(log, ['{"order": 2}'])
    monkeypatch.undo()
    assert log.read_bytes() == before and before.count(b"\n") == 3


# -- outputs that cannot be files ----------------------------------------------------------------------------------
def test_play_refuses_a_fifo_before_playing(run, tmp_path):
    os.mkfifo(tmp_path / "s.fifo")
    r = run("play", "toy", "--seed", "1", "--save", "s.fifo", input="1\n")  # the issue: this blocked forever
    assert "FIFO" in _one_error_line(r)


@pytest.mark.parametrize("target,word", [("/dev/null", "device"), ("folder", "folder")])
def test_play_refuses_a_device_or_a_folder(run, tmp_path, target, word):
    (tmp_path / "folder").mkdir()
    r = run("play", "toy", "--seed", "1", "--save", target, input="1\n")
    assert word in _one_error_line(r)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anything")
def test_play_refuses_an_unwritable_save(run, tmp_path):
    (tmp_path / "ro.json").write_text("{}")
    os.chmod(tmp_path / "ro.json", stat.S_IRUSR)
    assert "permission denied" in _one_error_line(run("play", "toy", "--save", "ro.json", input="1\n"))


def test_check_output_names_what_it_refuses(tmp_path):
    os.mkfifo(tmp_path / "f")
    for path, word in ((tmp_path / "f", "FIFO"), (tmp_path, "directory"), ("/dev/zero", "device"),
                       (tmp_path / "x" / "y" / "new.json", None), (tmp_path / "ok.json", None)):
        if word is None:
            assert files.check_output(path) == path
        else:
            with pytest.raises(files.OutputError, match=word):
                files.check_output(path)


# -- names -----------------------------------------------------------------------------------------------------------
def test_playtest_refuses_an_out_folder_whose_name_is_not_utf8(run, tmp_path):
    # the issue: a non-UTF-8 byte in --out crashed inside pyarrow and left a half-made folder
    name = os.fsdecode(b"run-\xff")
    r = run("playtest", "toy", "--games", "2", "--jobs", "1", "--quiet", "--out", name)
    assert "not valid UTF-8" in _one_error_line(r)
    assert os.listdir(tmp_path) == []


def test_replay_refuses_a_save_with_a_lone_surrogate(run, tmp_path):
    # the issue: an agent name "\ud800" (valid JSON) crashed replay while printing
    _save(run, "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    doc["agents"][0] = "\ud800"
    (tmp_path / "s.json").write_text(json.dumps(doc))  # json.dumps writes the escape "\ud800"
    assert "\\ud800" in (tmp_path / "s.json").read_text()
    line = _one_error_line(run("replay", "s.json"))
    assert "not valid Unicode" in line and "s.json" in line


# -- foreign results in compare --------------------------------------------------------------------------------------
def _row(i: int) -> dict:
    return {"index": i, "seed": 100 + i, "game": "toy", "variant": "standard", "players": 2, "options": "{}",
            "agents": ["random", "random"], "roles": ["seat 0", "seat 1"], "winners": [i % 2],
            "winner_roles": [f"seat {i % 2}"], "scores": [1.0 - i % 2, float(i % 2)], "truncated": False,
            "reason": "won", "turns": 5, "decisions": 9, "choice_points": 9, "mean_branching": 2.0,
            "lead_changes": 0, "closeness": 1.0, "metrics": {}, "first_seat": 0}


def _run_folder(path, table=None):
    import pyarrow.parquet as pq

    from boardlab.playtest.store import RunDir, rows_to_table

    run = RunDir(path)
    run.write_manifest({"config": {"game": "toy", "variant": "standard", "players": 2, "agents": ["random"] * 2,
                                   "seed": 0, "games": 4, "options": {}}})
    pq.write_table(table if table is not None else rows_to_table([_row(i) for i in range(4)]), run.results_path)
    return path


@pytest.mark.parametrize("kind", ["other-schema", "null-list", "null-seed"])
def test_compare_says_what_is_wrong_with_a_foreign_results_table(run, tmp_path, kind):
    import pyarrow as pa

    from boardlab.playtest.store import rows_to_table

    if kind == "other-schema":  # the issue: KeyError 'seed'
        table = pa.table({"game_id": ["x"], "winner": [1]})
    else:  # the issue: null list columns raised TypeError
        rows = [_row(i) for i in range(4)]
        if kind == "null-list":
            rows[1]["winners"] = None
        else:
            rows[2]["seed"] = None
        table = rows_to_table(rows)
    a = _run_folder(tmp_path / "a")
    b = _run_folder(tmp_path / "b", table)
    line = _one_error_line(run("compare", str(a), str(b)))
    assert "not a boardlab results table" in line
    assert {"other-schema": "lacks the columns", "null-list": "column winners", "null-seed": "column seed"}[kind] in line


def test_compare_refuses_a_fifo_for_its_html_before_reading_anything(run, tmp_path):
    a, b = _run_folder(tmp_path / "a"), _run_folder(tmp_path / "b")
    os.mkfifo(tmp_path / "c.fifo")
    assert "FIFO" in _one_error_line(run("compare", str(a), str(b), "--html", "c.fifo"))


def test_compare_of_two_good_runs_still_works(run, tmp_path):
    a, b = _run_folder(tmp_path / "a"), _run_folder(tmp_path / "b")
    r = run("compare", str(a), str(b), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["paired_games"] == 4
