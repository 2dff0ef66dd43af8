"""The run folder: ``manifest.json``, per-chunk Parquet parts, ``results.parquet`` and ``report.html``.

Rows are written one Parquet part per finished chunk (atomically, by
rename), so an interrupted run keeps every finished game and resumes without
redoing it.  When the run completes, the parts are merged, in game order,
into ``results.parquet``: one row per game, readable by pandas, Polars and
DuckDB.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Sequence

from boardlab.engine.errors import BoardlabError

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
        _atomic_write(self.manifest_path, json.dumps(manifest, indent=2, sort_keys=True).encode())

    def write_part(self, rows: Sequence[dict[str, Any]]) -> None:
        import pyarrow.parquet as pq

        if not rows:
            return
        self.parts_dir.mkdir(parents=True, exist_ok=True)
        first = min(r["index"] for r in rows)
        final = self.parts_dir / f"part-{first:09d}.parquet"
        tmp = final.with_suffix(".tmp")
        pq.write_table(rows_to_table(rows), tmp)
        os.replace(tmp, final)

    def read_parts(self) -> list[dict[str, Any]]:
        import pyarrow.parquet as pq

        rows: dict[int, dict[str, Any]] = {}
        if self.parts_dir.exists():
            for part in sorted(self.parts_dir.glob("part-*.parquet")):
                for r in table_to_rows(pq.read_table(part)):
                    rows[r["index"]] = r
        return [rows[i] for i in sorted(rows)]

    def finalize(self, rows: Sequence[dict[str, Any]]) -> None:
        import pyarrow.parquet as pq

        tmp = self.results_path.with_suffix(".tmp")
        pq.write_table(rows_to_table(sorted(rows, key=lambda r: r["index"])), tmp)
        os.replace(tmp, self.results_path)

    def read_results(self) -> list[dict[str, Any]]:
        import pyarrow.parquet as pq

        if not self.results_path.exists():
            raise BoardlabError(f"{self.path} has no results.parquet (is it a finished playtest run?)")
        return table_to_rows(pq.read_table(self.results_path))


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
