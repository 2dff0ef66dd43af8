"""``boardlab new-game NAME``: scaffold an in-tree game that passes every shared test as written.

Run it at the root of a boardlab checkout (or pass ``--dir``).  It writes, from
the templates in ``boardlab/cli/templates/newgame/`` (package data):

* ``boardlab/games/<pkg>/``: ``__init__``, ``game``, ``rules``, ``view``,
  ``features``, ``properties`` (rule properties), ``scene``, ``agents``, ``content`` and (unless ``--no-board``)
  ``board``, plus ``data/track.json``: a tiny real game, a race along a track
  in which a lead shared by every token is a draw;
* ``docs/rules/<id>.md`` (rules as implemented, an empty interpretation ledger,
  variants, the concordance table), ``docs/rules/<id>.rulebook.txt`` (the
  designer's own rules text) and ``docs/rules/<id>.concordance.csv`` (each of
  its sentences traced to the code);
* ``tests/<pkg>/``: rule scenarios marked with their rulebook sentences, and
  the shared checks at every decision;

and adds the registry line to ``BUILTIN`` in ``boardlab/engine/registry.py``, the
package to the game-package contract's ``containers`` in ``pyproject.toml`` and a
row to README.md's game table (``tests/test_readme_games.py`` checks it).
``<id>`` is NAME with dashes (``my-race``), ``<pkg>`` with underscores
(``my_race``).  An existing game or a bad name is refused (exit 2, one line)
before anything is written.  docs/architecture.md, "How to add a game",
"Scaffold", lists each generated piece.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
import sys
from importlib import resources
from pathlib import Path

import click

from boardlab.engine import registry
from boardlab.engine.files import atomic_write

NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
BLOCK = re.compile(r"^\s*# \[(/?)(board|no-board)\]\s*$")


def _fail(message: str) -> None:
    raise click.ClickException(message)


def names(name: str) -> dict[str, str]:
    """The game id, package, class prefix and title of NAME (refused with exit 2 when it is not a usable name)."""
    if not isinstance(name, str) or len(name) > 40 or not NAME.fullmatch(name):
        _fail(f"bad game name {name!r}: use lower-case letters, digits and single dashes, starting with a letter (e.g. my-race)")
    pkg = name.replace("-", "_")
    if keyword.iskeyword(pkg) or not pkg.isidentifier():
        _fail(f"bad game name {name!r}: {pkg!r} cannot be a Python package name")
    words = re.split(r"[-_]", name)
    return {
        "__GAME_ID__": name.replace("_", "-"),
        "__PKG__": pkg,
        "__CLASS__": "".join(w.capitalize() for w in words),
        "__TITLE__": " ".join(w.capitalize() for w in words),
    }


def _render(text: str, subs: dict[str, str], board: bool) -> str:
    """Keep or drop the ``# [board]`` / ``# [no-board]`` blocks, then fill in the names."""
    out, skip = [], None
    for line in text.splitlines(keepends=True):
        m = BLOCK.match(line)
        if m:
            closing, which = m.group(1) == "/", m.group(2)
            skip = None if closing else (which == "no-board") == board
            continue
        if not skip:
            out.append(line)
    text = "".join(out)
    for key, value in subs.items():
        text = text.replace(key, value)
    return text


def plan(root: Path, subs: dict[str, str], players: int, board: bool) -> dict[Path, str]:
    """Every file to write (path under ``root`` -> text)."""
    gid, pkg = subs["__GAME_ID__"], subs["__PKG__"]
    subs = {**subs, "__PLAYERS__": str(players)}
    templates = resources.files("boardlab.cli") / "templates" / "newgame"
    where = {
        "docs/rules.md.tmpl": f"docs/rules/{gid}.md",
        "docs/rulebook.txt.tmpl": f"docs/rules/{gid}.rulebook.txt",
        "docs/concordance.csv.tmpl": f"docs/rules/{gid}.concordance.csv",
        "tests/__init__.py.tmpl": f"tests/{pkg}/__init__.py",
        "tests/test_rules.py.tmpl": f"tests/{pkg}/test_rules.py",
    }
    files: dict[Path, str] = {}

    def walk(folder, rel: str) -> None:
        for item in sorted(folder.iterdir(), key=lambda t: t.name):
            name = f"{rel}{item.name}"
            if item.is_dir():
                walk(item, name + "/")
            elif name.endswith(".tmpl"):
                if name == "board.py.tmpl" and not board:
                    continue
                target = where.get(name, f"boardlab/games/{pkg}/{name[:-len('.tmpl')]}")
                files[root / target] = _render(item.read_text(encoding="utf-8"), subs, board)

    walk(templates, "")
    return files


def _insert_sorted(lines: list[str], start: int, end: int, new: str) -> list[str]:
    """Insert ``new`` among ``lines[start:end]`` (sorted entries) before the first that sorts after it."""
    at = next((i for i in range(start, end) if lines[i].strip() > new.strip()), end)
    return lines[:at] + [new] + lines[at:]


def registry_edit(text: str, gid: str, pkg: str, cls: str) -> str:
    lines = text.split("\n")
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("BUILTIN")) + 1
        end = next(i for i in range(start, len(lines)) if lines[i].startswith("}"))
    except StopIteration:
        _fail("boardlab/engine/registry.py has no BUILTIN table to add the game to")
    entry = f'    "{gid}": "boardlab.games.{pkg}.game:{cls}Game",'
    return "\n".join(_insert_sorted(lines, start, end, entry))


def contract_edit(text: str, pkg: str) -> str:
    lines = text.split("\n")
    try:
        contract = next(i for i, line in enumerate(lines) if line.startswith('name = "Game packages'))
        start = next(i for i in range(contract, len(lines)) if lines[i].startswith("containers = [")) + 1
        end = next(i for i in range(start, len(lines)) if lines[i].startswith("]"))
    except StopIteration:
        _fail("pyproject.toml has no game-package contract (containers) to add the game to")
    return "\n".join(_insert_sorted(lines, start, end, f'    "boardlab.games.{pkg}",'))


def readme_edit(text: str, title: str, gid: str, players: int) -> str:
    """Add the game's row at the end of README.md's game table (``| game | id | players | ... |``), if it has one."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if re.match(r"\|\s*game\s*\|\s*id\s*\|\s*players\s*\|", line)), None)
    if start is None:
        return text
    end = start + 2
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    row = f"| {title} | `{gid}` | {players} | a race along a track (scaffolded by `boardlab new-game`: describe your game here) |"
    return "\n".join([*lines[:end], row, *lines[end:]])


def render_concordance(root: Path, gid: str, pkg: str) -> bool:
    """Write the concordance table into the new rules doc with the checkout's own scripts/concordance.py."""
    script = root / "scripts" / "concordance.py"
    if not script.is_file():
        return False
    name = "_boardlab_newgame_concordance"
    spec = importlib.util.spec_from_file_location(name, script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        if not hasattr(module, "rules_text_path"):  # an older script that knows only the seeds
            return False
        rows = module.read_rows(gid)
        marks = module.marked_tests(root / "tests" / pkg)
        for row in rows:
            if row.kind == "rule":
                row.tests = marks.get(row.full_id, [])
        _, sentences = module.seed_sentences(gid)
        module.write_table(gid, module.render(gid, rows, sentences))
    except Exception as exc:  # the game is written; only its table is missing
        click.echo(f"boardlab: warning: the concordance table was not rendered ({type(exc).__name__}: {exc}); "
                   f"run python scripts/concordance.py --game {gid} --write", err=True)
        return False
    finally:
        sys.modules.pop(name, None)
    return True


GAME_ID = re.compile(r"""^\s+id\s*=\s*["']([a-z0-9_-]+)["']""", re.M)


def taken_by(root: Path, gid: str, pkg: str) -> str | None:
    """Where ``gid`` (or its package ``pkg``) is already a game outside the registry: the worked example
    (``examples/<pkg>/``) or a game class of the examples or the tests (``id = "<gid>"``), which the tests
    register beside the built-in games; ``None`` when it is free."""
    for folder in ("examples",):
        if (root / folder / pkg).exists():
            return f"{folder}/{pkg}/"
    for folder in ("examples", "tests"):
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if gid in text and any(m.replace("_", "-") == gid for m in GAME_ID.findall(text)):
                return f"a game in {path.relative_to(root).as_posix()}"
    return None


def scaffold(name: str, players: int = 2, board: bool = True, root: Path | str = ".") -> list[Path]:
    """Write the new game into the checkout at ``root``; return the files written or changed."""
    root = Path(root).resolve()
    subs = names(name)
    gid, pkg, cls = subs["__GAME_ID__"], subs["__PKG__"], subs["__CLASS__"]
    registry_py, pyproject = root / "boardlab" / "engine" / "registry.py", root / "pyproject.toml"
    if not (registry_py.is_file() and pyproject.is_file() and (root / "boardlab" / "games").is_dir()):
        _fail(f"{root.resolve()} is not a boardlab checkout (no boardlab/engine/registry.py, boardlab/games/ or pyproject.toml); "
              "run it at the repository root or pass --dir")
    if not 2 <= players <= 6:
        _fail(f"--players must be from 2 to 6, not {players}")
    reg_text = registry_py.read_text(encoding="utf-8")
    if gid in registry.game_ids() or f'"{gid}":' in reg_text:
        _fail(f"a game {gid!r} is already registered")
    clash = taken_by(root, gid, pkg)
    if clash:
        _fail(f"the id {gid!r} is taken by {clash}: choose another name (the shared tests register both)")
    files = plan(root, subs, players, board)
    for folder in (root / "boardlab" / "games" / pkg, root / "tests" / pkg):
        if folder.exists():
            _fail(f"{folder.relative_to(root)} already exists")
    for path in files:
        if path.exists():
            _fail(f"{path.relative_to(root)} already exists")
    py_text = pyproject.read_text(encoding="utf-8")
    new_reg, new_py = registry_edit(reg_text, gid, pkg, cls), contract_edit(py_text, pkg)
    if not board and '"(board) : content"' not in py_text:
        _fail("--no-board needs the optional board layer in pyproject.toml's game-package contract ('\"(board) : content\"')")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text, "new game file")
    atomic_write(registry_py, new_reg, "registry")  # each file whole or not at all
    atomic_write(pyproject, new_py, "pyproject.toml")
    written = [*files, registry_py, pyproject]
    readme = root / "README.md"
    if readme.is_file():
        text = readme.read_text(encoding="utf-8")
        new = readme_edit(text, subs["__TITLE__"], gid, players)
        if new != text:
            atomic_write(readme, new, "README")
            written.append(readme)
    if render_concordance(root, gid, pkg):
        written.append(root / "docs" / "rules" / f"{gid}.md")
    return written


@click.command("new-game")
@click.argument("name")
@click.option("--players", type=int, default=2, show_default=True, help="Seats (2 to 6).")
@click.option("--board/--no-board", default=True, show_default=True,
              help="Ship a board module (the track's geometry) or none (the scene then has no board).")
@click.option("--dir", "root", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              help="The boardlab checkout to write into [default: the current folder].")
def command(name: str, players: int, board: bool, root: Path) -> None:
    """Scaffold a new in-tree game NAME that passes every shared test as written.

    Writes boardlab/games/<pkg>/, its rules documents and concordance in docs/rules/,
    tests/<pkg>/, the registry line and the import-contract entry (see docs/architecture.md,
    "How to add a game", "Scaffold").
    """
    written = scaffold(name, players=players, board=board, root=root)
    gid = names(name)["__GAME_ID__"]
    base = Path(root).resolve()
    seen: set[Path] = set()
    for path in sorted(written):
        if path not in seen:
            seen.add(path)
            click.echo(f"wrote {path.relative_to(base)}")
    for line in next_steps(gid, names(name)["__PKG__"]):
        click.echo(line)


def next_steps(gid: str, pkg: str) -> list[str]:
    """The exact commands that check a new game fully, from the checkout's root (docs/architecture.md,
    "How to add a game", "11. Check"): its own tests, every shared test that takes its cases from the
    games (all of ``tests`` selected by the id: conformance, indistinguishability, jargon, why-not,
    terminal, web leaks, browser ...; a list of files went stale when a new such test was added), the
    checks that read the tree (concordance, worked example, README table, import contracts), then
    everything."""
    return [
        f"next: check {gid} fully, from the checkout's root:",
        f"  python -m pytest tests/{pkg}",
        f"  python -m pytest tests -k {gid}  # every shared test that takes its cases from the games",
        "  python -m pytest tests/test_concordance.py tests/test_worked_example.py tests/test_readme_games.py",
        "  lint-imports --no-cache && python scripts/concordance.py",
        f"  python -m boardlab play {gid}",
        "  bash scripts/test.sh  # the whole suite, last",
    ]
