"""The ``boardlab`` command line: list, play, replay, simulate and serve games.

Each command lives in its own module exposing a click command named
``command``; :data:`COMMAND_MODULES` lists them and :func:`build_cli`
registers them on the main group.  To add a command, write a module and
append its import path to the list.

Every bad argument (unknown game, variant, agent or option, bad number,
missing or malformed file, unknown command) ends with a one-line message
on stderr and exit code 2, never a traceback or a usage dump.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Sequence

import click

from boardlab.engine.errors import BoardlabError

#: Modules that each define a click command named ``command``.
COMMAND_MODULES = [
    "boardlab.cli.games",
    "boardlab.cli.play",
    "boardlab.cli.replay",
    "boardlab.cli.simulate",
    "boardlab.cli.serve",
    "boardlab.cli.playtest",
    "boardlab.cli.compare",
    "boardlab.cli.tune",
    "boardlab.cli.fiteval",
    "boardlab.cli.fitpolicy",
    "boardlab.cli.arena",
    "boardlab.cli.study",
    "boardlab.cli.newgame",
]

#: Raised by click >= 8.2 for a bare ``boardlab`` (older versions print the help themselves).
_NO_ARGS: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())

#: Exit code of every bad-argument error.
USAGE_ERROR = 2


def _one_line(message: str) -> str:
    return " ".join(str(message).split())


class BoardlabGroup(click.Group):
    """The main group: turns every expected error into one line on stderr and exit code 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any) -> Any:  # type: ignore[override]
        extra.pop("standalone_mode", None)
        try:
            rv = super().main(args=args, prog_name=prog_name or "boardlab", standalone_mode=False, **extra)
        except _NO_ARGS as exc:  # plain `boardlab`: show the help
            click.echo(exc.ctx.get_help() if exc.ctx is not None else self.get_help(click.Context(self)))
            sys.exit(0)
        except click.exceptions.Abort:
            click.echo("boardlab: aborted", err=True)
            sys.exit(130)
        except click.UsageError as exc:
            hint = exc.format_message()
            if exc.ctx is not None and exc.ctx.command is not self and not isinstance(exc, click.BadParameter):
                hint = f"{hint} (see 'boardlab {exc.ctx.info_name} --help')"
            _fail(hint)
        except click.ClickException as exc:  # e.g. click.FileError
            _fail(exc.format_message())
        except BoardlabError as exc:
            _fail(str(exc))
        except RecursionError:
            _fail("the input is nested too deeply")
        except OSError as exc:  # a file or folder that cannot be read or written
            where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
            _fail(f"cannot access{where}: {exc.strerror or exc}")
        except KeyboardInterrupt:
            click.echo("boardlab: interrupted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


def _fail(message: str) -> None:
    click.echo(f"boardlab: error: {_one_line(message)}", err=True)
    sys.exit(USAGE_ERROR)


def build_cli() -> click.Group:
    """The ``boardlab`` group with every command of :data:`COMMAND_MODULES` registered."""

    @click.group(cls=BoardlabGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(package_name="boardlab", prog_name="boardlab")
    def cli() -> None:
        """boardlab: five paper board-game designs as playable software, and a playtesting lab."""

    for path in COMMAND_MODULES:
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name != path:  # a real import error inside the module: show it
                raise
            click.echo(f"boardlab: warning: command module {path} is missing", err=True)
            continue
        cli.add_command(module.command)
    return cli


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``boardlab`` console script."""
    build_cli().main(args=list(argv) if argv is not None else None, prog_name="boardlab")
