"""The run folder: ``manifest.json``, per-chunk Parquet parts, ``results.parquet`` and ``report.html``.

Rows are written one Parquet part per finished chunk (atomically: a
temporary file beside it, fsynced and renamed, see
:func:`boardlab.engine.files.atomic_write_with`), so an interrupted run keeps every finished game and resumes without
redoing it.  When the run completes, the parts are merged, in game order,
into ``results.parquet``: one row per game, readable by pandas, Polars and
DuckDB.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from boardlab.engine.errors import BoardlabError, SaveFileError
from boardlab.engine.files import atomic_write, atomic_write_with

COLUMNS = (
    "index", "seed", "game", "variant", "players", "options", "agents", "roles", "winners",
    "winner_roles", "scores", "truncated", "reason", "turns", "decisions", "choice_points",
    "mean_branching", "lead_changes", "closeness", "metrics", "first_seat",
    "downtime_mean", "downtime_max", "waiting_out", "decided_at", "kingmaking",
)
#: Columns added after the first release: rows (and run folders) written before them may lack them.
OPTIONAL = frozenset(("first_seat", "downtime_mean", "downtime_max", "waiting_out", "decided_at", "kingmaking"))


def _schema() -> Any:
    import pyarrow as pa

    return pa.schema([
        ("index", pa.int64()), ("seed", pa.int64()), ("game", pa.string()), ("variant", pa.string()),
        ("players", pa.int64()), ("options", pa.string()), ("agents", pa.list_(pa.string())),
        ("roles", pa.list_(pa.string())), ("winners", pa.list_(pa.int64())),
        ("winner_roles", pa.list_(pa.string())), ("scores", pa.list_(pa.float64())),
        ("truncated", pa.bool_()), ("reason", pa.string()), ("turns", pa.int64()),
        ("decisions", pa.int64()), ("choice_points", pa.int64()), ("mean_branching", pa.float64()),
        ("lead_changes", pa.int64()), ("closeness", pa.float64()), ("metrics", pa.string()),
        ("first_seat", pa.int64()),
        ("downtime_mean", pa.list_(pa.float64())), ("downtime_max", pa.list_(pa.int64())),
        ("waiting_out", pa.list_(pa.int64())), ("decided_at", pa.float64()), ("kingmaking", pa.int64()),
    ])


def rows_to_table(rows: Sequence[dict[str, Any]]) -> Any:
    import pyarrow as pa

    cols: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    for r in rows:
        for c in COLUMNS:
            v = r.get(c) if c in OPTIONAL else r[c]
            if c == "metrics":
                v = json.dumps(v, sort_keys=True)
            cols[c].append(v)
    return pa.table(cols, schema=_schema())


def table_to_rows(table: Any) -> list[dict[str, Any]]:
    rows = table.to_pylist()
    for r in rows:
        r["metrics"] = json.loads(r["metrics"]) if r.get("metrics") else {}
    return rows


class RunDir:
    """A playtest run folder."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    @property
    def manifest_path(self) -> Path:
        return self.path / "manifest.json"

    @property
    def results_path(self) -> Path:
        return self.path / "results.parquet"

    @property
    def parts_dir(self) -> Path:
        return self.path / "parts"

    def exists(self) -> bool:
        return self.manifest_path.exists()

    def read_manifest(self) -> dict[str, Any]:
        from boardlab.engine.files import load_json_file  # the one bounded reader of user files (issue 31)

        return load_json_file(self.manifest_path, "run manifest", error=BoardlabError)

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        atomic_write(self.manifest_path, json.dumps(manifest, indent=2, sort_keys=True), "run manifest",
                     error=BoardlabError)

    def write_part(self, rows: Sequence[dict[str, Any]]) -> None:
        import pyarrow.parquet as pq

        if not rows:
            return
        self.parts_dir.mkdir(parents=True, exist_ok=True)
        first = min(r["index"] for r in rows)
        final = self.parts_dir / f"part-{first:09d}.parquet"
        table = rows_to_table(rows)
        atomic_write_with(final, lambda tmp: pq.write_table(table, tmp), "results part", error=BoardlabError)

    def read_parts(self) -> list[dict[str, Any]]:
        import pyarrow.parquet as pq

        rows: dict[int, dict[str, Any]] = {}
        if self.parts_dir.exists():
            for stale in self.parts_dir.glob(".part-*.tmp"):  # a part being written when the run was killed
                try:
                    stale.unlink()
                except OSError:
                    pass
            for part in sorted(self.parts_dir.glob("part-[0-9]*.parquet")):
                for r in table_to_rows(pq.read_table(part)):
                    rows[r["index"]] = r
        return [rows[i] for i in sorted(rows)]

    def finalize(self, rows: Sequence[dict[str, Any]]) -> None:
        import pyarrow.parquet as pq

        table = rows_to_table(sorted(rows, key=lambda r: r["index"]))
        atomic_write_with(self.results_path, lambda tmp: pq.write_table(table, tmp), "results", error=BoardlabError)

    def read_results(self) -> list[dict[str, Any]]:
        import pyarrow.parquet as pq

        if not self.results_path.exists():
            raise BoardlabError(f"{self.path} has no results.parquet (is it a finished playtest run?)")
        table = pq.read_table(self.results_path)
        problem = schema_problem(table)
        if problem is not None:
            raise SaveFileError(f"{self.results_path} is not a boardlab results table: {problem}")
        return table_to_rows(table)


#: Columns a row needs and may not hold null in (the rest may be null or, for OPTIONAL ones, absent).
REQUIRED_VALUES = ("index", "seed", "players", "agents", "roles", "winners", "scores", "truncated", "turns",
                   "decisions")


def schema_problem(table: Any) -> str | None:
    """What makes ``table`` (a pyarrow table) not a results table this version reads, in words; ``None`` if fine.

    Every column of :data:`COLUMNS` but the :data:`OPTIONAL` ones must be there with the type boardlab writes
    (an integer column may have another integer width), and :data:`REQUIRED_VALUES` may hold no nulls.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    want = _schema()
    have = {f.name: f.type for f in table.schema}
    missing = [c for c in COLUMNS if c not in have and c not in OPTIONAL]
    if missing:
        return f"it lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}"

    def same(a: Any, b: Any) -> bool:
        if pa.types.is_integer(a) and pa.types.is_integer(b):
            return True
        if pa.types.is_floating(a) and (pa.types.is_floating(b) or pa.types.is_integer(b)):
            return True
        if pa.types.is_string(a) and (pa.types.is_string(b) or pa.types.is_large_string(b)):
            return True
        if (pa.types.is_list(a) or pa.types.is_large_list(a)) and (pa.types.is_list(b) or pa.types.is_large_list(b)):
            return same(a.value_type, b.value_type)
        return a == b

    for f in want:
        if f.name in have and not same(f.type, have[f.name]):
            return f"column {f.name} is {have[f.name]}, not {f.type}"
    for c in REQUIRED_VALUES:
        col = table.column(c)
        if col.null_count:
            return f"column {c} has {col.null_count} null value{'s' if col.null_count > 1 else ''}"
        if pa.types.is_list(col.type) or pa.types.is_large_list(col.type):
            inner = pc.list_flatten(col).null_count if len(col) else 0
            if inner:
                return f"column {c} holds null items"
    return None
