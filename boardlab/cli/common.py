"""Helpers shared by the commands: parsing ``k=v`` options, seats and agent specs."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

import click
from rich.console import Console

from boardlab.agents import make_agent
from boardlab.engine import registry
from boardlab.engine.core import ENGINES, EngineChoice, choose
from boardlab.engine.errors import BoardlabError, InvalidOptionError, UnknownAgentError
from boardlab.engine.files import check_output, check_output_folder
from boardlab.engine.game import Game

#: The pseudo-agent naming a human seat in ``boardlab play``.
HUMAN = "human"


def console(stderr: bool = False) -> Console:
    """A rich console on the current stdout (or stderr); built per call so tests can capture it."""
    return Console(file=sys.stderr if stderr else sys.stdout, highlight=False, soft_wrap=False)


#: Worker processes allowed per core (``--jobs``): more only thrashes the machine.
JOBS_PER_CORE = 4
#: The most games one command plays (``--games``): larger runs are split into several.
MAX_GAMES = 1_000_000


#: ``--seed``: a non-negative 63-bit integer (the engine masks seeds to 64 bits; a longer number
#: would only make a saved game that the bounded reader refuses).
SEED = click.IntRange(0, 2**63 - 1)
#: ``--players``: the game checks its own range; this only keeps absurd numbers out of messages.
PLAYERS = click.IntRange(1, 64)
#: ``--max-turns``: a turn cap (no game here needs more than a few thousand turns).
MAX_TURNS = click.IntRange(1, 1_000_000)


class FiniteFloat(click.ParamType):
    """A float in ``[low, high]`` (open at ``low`` if ``low_open``); ``nan`` and ``inf`` are refused.

    (``click.FloatRange`` lets ``nan`` through: every comparison with it is false.)
    """

    name = "number"

    def __init__(self, low: float, high: float, *, low_open: bool = False) -> None:
        self.low, self.high, self.low_open = low, high, low_open

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if number != number or number in (float("inf"), float("-inf")):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if number < self.low or (self.low_open and number == self.low) or number > self.high:
            bracket = "(" if self.low_open else "["
            self.fail(f"{value!r} is not in the range {bracket}{self.low:g}, {self.high:g}]", param, ctx)
        return number

    def __repr__(self) -> str:
        return f"FiniteFloat({self.low}, {self.high})"


#: ``--engine``, shared by every command that plays games (simulate, playtest, compare, tune, study, arena).
engine_option = click.option(
    "--engine", type=click.Choice(ENGINES), default=None,
    help="Which engine plays: 'auto' (default) the compiled core where it supports the game, its options and "
         "agents, else the Python rules; 'python' the Python rules; 'core' the core or exit 2 saying why. "
         "The results are the same either way.")


def use_engine(engine: str | None, game: Game | None = None, specs: Sequence[str] = (),
               restricted: bool = False) -> EngineChoice | None:
    """Make ``--engine`` the process's choice (``BOARDLAB_ENGINE``, inherited by worker processes) and,
    given a game, return the engine that plays it (``--engine core`` that cannot: one line, exit 2)."""
    if engine is not None:
        before = os.environ.get("BOARDLAB_ENGINE")
        os.environ["BOARDLAB_ENGINE"] = engine
        ctx = click.get_current_context(silent=True)
        if ctx is not None:  # a command run in-process (tests, scripts) leaves the environment as it found it
            ctx.call_on_close(lambda: _restore_env("BOARDLAB_ENGINE", before))
    if game is None:
        return None
    return choose(game, specs, engine, restricted=restricted)


def _restore_env(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def max_jobs() -> int:
    """The largest ``--jobs`` accepted on this machine."""
    return JOBS_PER_CORE * (os.cpu_count() or 1)


def check_jobs(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--jobs`` callback: at most :data:`JOBS_PER_CORE` workers per core."""
    if value is not None and value > max_jobs():
        raise click.BadParameter(
            f"{value} is too many workers: at most {max_jobs()} ({JOBS_PER_CORE} per core, {os.cpu_count()} cores)"
        )
    return value


def check_games(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--games`` callback: at most :data:`MAX_GAMES` games in one command."""
    if value is not None and value > MAX_GAMES:
        raise click.BadParameter(f"{value} is more than {MAX_GAMES:,} games; split the run into several")
    return value


def check_output_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Callback of options naming a file to write, checked before any work: its folder must exist, and the
    target must not be a folder, FIFO, device or unwritable file, nor have a name that is not UTF-8."""
    if value is not None:
        parent = Path(value).expanduser().parent
        if not parent.is_dir():
            raise click.BadParameter(f"cannot write {printable(value)}: the folder {printable(parent)} does not exist")
        if Path(value).is_dir():
            raise click.BadParameter(f"cannot write {printable(value)}: it is a folder")
        check_output(Path(value).expanduser(), "file")
    return value


def check_output_dir(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Callback of ``--out FOLDER`` options, checked before any work: a folder (or a path where one can be
    made) that is writable, with a UTF-8 name (pyarrow and the reports need one)."""
    if value is not None:
        check_output_folder(Path(value).expanduser(), "output folder")
    return value


def printable(value: Any) -> str:
    """``value`` (a path or name) as text safe to print: bytes that are not UTF-8 (lone surrogates) escaped."""
    text = str(value)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


class Keeping:
    """Where a worker command keeps its games, for the line an interrupt prints (see :func:`worker_command`).

    ``where`` is the run folder (or arena log); ``None``: the command keeps nothing on disk (``simulate``).
    """

    def __init__(self, where: str | Path | None) -> None:
        self.where = where

    def games(self) -> int:
        """The games on disk in :attr:`where`: rows of every run part under it, or an arena log's game lines."""
        where = self.where
        if where is None:
            return 0
        p = Path(where)
        if p.is_file():  # an arena log: a header line, then one line per game
            try:
                with open(p, "rb") as f:
                    return max(0, sum(1 for line in f if line.endswith(b"\n") and line.strip()) - 1)
            except OSError:
                return 0
        if not p.is_dir():
            return 0
        import pyarrow.parquet as pq

        total = 0
        for part in p.rglob("part-[0-9]*.parquet"):
            try:
                total += pq.read_metadata(part).num_rows
            except Exception:  # noqa: BLE001 - a part being written when the signal came is not kept
                pass
        return total


@contextmanager
def worker_command(where: str | Path | None) -> Iterator[Keeping]:
    """Run a command that plays games in worker processes so that SIGINT and SIGTERM stop it cleanly.

    Inside, the signals raise :class:`~boardlab.agents.runner.Interrupted`; the worker pools stop their
    workers within a second (and workers die with a killed parent), files are only ever replaced whole, and
    the command ends with one line on stderr, ``boardlab: interrupted; N games kept in D, rerun the same
    command to resume``, and exit code 130 (SIGINT) or 143 (SIGTERM).  The yielded :class:`Keeping` may be
    pointed at another folder as the command moves on.
    """
    from boardlab.agents.runner import interrupts

    keeping = Keeping(where)
    _KEEPING.append(keeping)
    try:
        with interrupts():
            yield keeping
    except KeyboardInterrupt as exc:
        code = getattr(exc, "exit_code", 130)
        if keeping.where is None:
            line = "interrupted; no games kept (this command writes nothing until it ends), rerun the same command"
        else:
            line = (f"interrupted; {keeping.games():,} games kept in {printable(keeping.where)}, "
                    "rerun the same command to resume")
        click.echo(f"boardlab: {line}", err=True)
        sys.exit(code)
    finally:
        _KEEPING.remove(keeping)


_KEEPING: list[Keeping] = []


def keep_in(where: str | Path | None) -> None:
    """Tell the running :func:`worker_command` where its games are now kept (a run folder, an arena log)."""
    if _KEEPING:
        _KEEPING[-1].where = where


def interruptible(fn: Any) -> Any:
    """Decorator of a command function (below its click options): its whole body runs in
    :func:`worker_command` (``keep_in`` names the folder once it is known)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with worker_command(None):
            return fn(*args, **kwargs)

    return wrapper


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``["k=v", ...]`` -> ``{"k": "v"}`` (values are coerced later by the game's options)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} must look like key=value", param_hint="'--option'")
        if key in out:
            raise InvalidOptionError(f"--option {key} is given twice ({out[key]!r} and {value.strip()!r})")
        out[key] = value.strip()
    return out


def make_game(
    game_id: str,
    players: int | None,
    variant: str | None,
    options: Sequence[str] = (),
    max_turns: int | None = None,
) -> Game:
    """Build the configured game; raises :class:`BoardlabError` on any bad name or value."""
    opts: dict[str, Any] = parse_options(options)
    if max_turns is not None:
        opts["max_turns"] = max_turns
    return registry.make(game_id, players=players, variant=variant, options=opts)


def default_agent(game: Game) -> str:
    """``heuristic`` if the game has one, else ``random``."""
    return "heuristic" if "heuristic" in getattr(game, "agents", {}) else "random"


def check_agent(spec: str, game: Game, seat: int) -> None:
    """Build (and drop) the agent once so a bad name or parameter fails early with a clear message."""
    try:
        make_agent(spec, game, seat, 0)
    except BoardlabError:
        raise
    except Exception as exc:  # an agent constructor rejecting its parameters
        raise UnknownAgentError(f"agent {spec!r} cannot be built: {exc}") from None


def parse_agents(text: str | None, game: Game) -> list[str]:
    """``--agents a,b,c`` -> one spec per seat (a single spec is used for every seat)."""
    if text is None or not text.strip():
        return [default_agent(game)] * game.players
    specs = [s.strip() for s in text.split(",")]
    if len(specs) == 1:
        specs = specs * game.players
    if len(specs) != game.players:
        raise UnknownAgentError(
            f"--agents needs 1 or {game.players} specs for {game.players} players, got {len(specs)}"
        )
    for seat, spec in enumerate(specs):
        if spec == HUMAN:
            raise UnknownAgentError("the 'human' agent is only for 'boardlab play'")
        check_agent(spec, game, seat)
    return specs


def parse_seats(pairs: Sequence[str], game: Game) -> list[str]:
    """``--seat 1=human --seat 3=random`` -> one spec per seat (index 0 is the first seat).

    Seats are counted from 1 here, as everywhere players see them (the lobby, the quick starts, the
    web pages); the returned list and the Python API count from 0.  Unless some seat is named human
    (or seat 1 is given a bot), seat 1 is human.  Seats not named get the default bot
    (:func:`default_agent`), so naming a bot for every seat watches a game.
    """
    chosen: dict[int, str] = {}
    for pair in pairs:
        key, sep, spec = pair.partition("=")
        try:
            number = int(key)
        except ValueError:
            number = 0
        if not sep or not spec.strip() or number < 1:
            raise click.BadParameter(f"{pair!r} must look like SEAT=AGENT with seats counted from 1, e.g. 1=human",
                                     param_hint="'--seat'")
        if number > game.players:
            raise InvalidOptionError(f"--seat {pair}: seats are 1..{game.players} for {game.players} players")
        seat = number - 1
        if seat in chosen:
            raise InvalidOptionError(f"--seat {number} is given twice ({chosen[seat]!r} and {spec.strip()!r})")
        chosen[seat] = spec.strip()
    if HUMAN not in chosen.values() and 0 not in chosen:
        chosen[0] = HUMAN
    specs = [chosen.get(s, default_agent(game)) for s in range(game.players)]
    for seat, spec in enumerate(specs):
        if spec != HUMAN:
            check_agent(spec, game, seat)
    return specs
