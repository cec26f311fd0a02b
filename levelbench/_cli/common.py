"""What every command shares: exit codes, the ``--db`` option, one-line failures."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import click

from .._values.files import replace_file, why_not_written

OK = 0
"""Done, nothing to report."""
FINDINGS = 1
"""Done, and something is wrong: findings at or above --fail-on, a regression, a failed workload."""
USAGE = 2
"""The command line is wrong (or the database unusable): nothing was done."""
INTERRUPTED = 130
"""Stopped by Ctrl-C (or SIGTERM); what finished was kept."""

db_option = click.option(
    "--db", type=click.Path(dir_okay=False), default=None,
    help="Results database (default: $LEVELBENCH_DB or .levelbench/results.db).",
)


def fail(message: str, code: int = USAGE) -> NoReturn:
    """Print ``message`` on one line to stderr and exit with ``code``."""
    click.echo(message, err=True)
    sys.exit(code)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP (CI cancelling a job, `timeout`, `docker stop`, a closed terminal) stop the
    command as Ctrl-C does: ``KeyboardInterrupt("SIGTERM")`` is raised, once; what finished is kept.
    A second signal while the command winds up is ignored, so it can finish recording."""
    raised: list[str] = []

    def stop(signum: int, frame: Any) -> None:
        if not raised:
            raised.append(signal.Signals(signum).name)
            raise KeyboardInterrupt(raised[0])

    wanted = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    try:
        previous = {s: signal.signal(s, stop) for s in wanted}
    except ValueError:  # not the main thread (an embedding): leave the signals alone
        previous = {}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def check_output(path: str, option: str) -> None:
    """Fail now (exit 2, one line) if ``path`` cannot be written: before any work is done."""
    if path == "-":
        return
    target = Path(path)
    _refuse_database(target, option)
    if target.exists() and not target.is_file():
        return  # a device or a pipe (/dev/stdout, a FIFO): written as it is
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        fail(f"{option}: expected a file path, got the directory {path}: add a file name, e.g. {target / 'out'}")
    if not folder.is_dir():
        fail(f"{option}: the directory {folder} does not exist: create it first, or choose another path")
    try:  # os.access is not enough: a read-only mount, or root's permission to write anywhere
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{target.name}.", suffix=".check"):
            pass
    except OSError as e:
        fail(f"{option}: cannot write to {folder} ({why_not_written(e)}): choose another path")
    with contextlib.suppress(OSError, AttributeError):
        if os.statvfs(folder).f_bavail == 0:
            fail(f"{option}: cannot write to {folder} (disk full: free some space): choose another path")


def write_output(path: str, text: str, option: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (`replace_file`: a full disk or an unwritable place
    is one line and exit 2, and the file that was there is left as it was). A results database is never
    written over."""
    if path == "-":
        click.echo(text, nl=not text.endswith("\n"))
        return
    target = Path(path)
    _refuse_database(target, option)
    if target.exists() and not target.is_file():
        try:  # a device or a pipe (/dev/stdout, a FIFO) cannot be replaced: written as it is
            with open(target, "a", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            fail(f"{option}: cannot write {path} ({why_not_written(e)})")
        return
    try:
        replace_file(target, text)
    except OSError as e:
        fail(f"{option}: cannot write {path} ({why_not_written(e)}); nothing was written")


def _refuse_database(target: Path, option: str) -> None:
    """Exit 2 if ``target`` holds an SQLite database (the results store, most likely): a report or an
    export written over it would lose every run in it."""
    try:
        if not target.is_file():  # a FIFO would block the read
            return
        with open(target, "rb") as f:
            head = f.read(16)
    except OSError:
        return
    if head == b"SQLite format 3\x00":
        fail(f"{option}: {target} is an SQLite database (a levelbench results store?); levelbench does not "
             f"write a report or an export over it: choose another path, e.g. {target.with_suffix('.json')}")


# -- one spelling for what a command prints or writes ------------------------------------------------
# Every command that shows results takes --format (what) and -o/--output (where; '-' or nothing is
# standard output). The older --json spellings still work, with one line on stderr saying the new one.

def format_option(choices: tuple[str, ...] = ("text", "json"), default: str = "text", help: str = "") -> Any:
    """``--format`` with the accepted values listed literally in ``--help``."""
    return click.option("--format", "fmt", type=click.Choice(list(choices)), default=default, show_default=True,
                        help=help or "text: tables for people; json: every number, for programs.")


def output_option(help: str = "") -> Any:
    """``-o/--output PATH``: where the results in --format go ('-' or none: standard output)."""
    return click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=None,
                        metavar="PATH", help=help or "Write the results to PATH, whole or not at all "
                                                     "(default or '-': standard output).")


def json_flag_option() -> Any:
    """The deprecated ``--json`` flag of history, diff, env and explain."""
    return click.option("--json", "json_flag", is_flag=True,
                        help="(deprecated: use --format json) Print JSON instead of the text.")


def json_path_option() -> Any:
    """The deprecated ``--json PATH`` of run and measure."""
    return click.option("--json", "json_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
                        metavar="PATH", help="(deprecated: use --format json -o PATH) Write the results as JSON "
                                             "to PATH ('-' for standard output).")


def choose_output(command: str, fmt: str, output: str | None, *, json_flag: bool = False,
                  json_path: str | None = None, default_format: str = "text") -> tuple[str, str]:
    """The format and the destination ('-' for standard output) from ``--format``/``-o`` or the
    deprecated ``--json`` spellings, which say their replacement on stderr. Both spellings at once
    with different meanings is a usage error (exit 2); a destination file is checked writable now."""
    if json_flag or json_path is not None:
        old = "--json" if json_flag else f"--json {json_path}"
        new = "--format json" + ("" if json_flag or json_path == "-" else f" -o {json_path}")
        if fmt not in (default_format, "json"):
            fail(f"levelbench {command}: {old} asks for JSON but --format says {fmt}: give one, e.g. {new}")
        if json_path is not None and output is not None and output != json_path:
            fail(f"levelbench {command}: two destinations, {old} and -o {output}: give one, e.g. "
                 f"--format json -o {output}")
        fmt, output = "json", output if json_path is None else json_path
        check_output(output or "-", f"levelbench {command} --json")  # a failure stays one line
        click.echo(f"levelbench {command}: {old} is deprecated and will go; use {new}", err=True)
    output = output or "-"
    check_output(output, f"levelbench {command} -o")
    return fmt, output


def emit(command: str, output: str, text: str) -> None:
    """``text`` to standard output, or written whole to the file ``output``."""
    write_output(output, text, f"levelbench {command} -o")


def show_text(command: str, output: str, renderable: object) -> None:
    """A rich renderable on the terminal (in colour where it is one), or as plain text into the file ``output``."""
    if output == "-":
        from .._rendering.terminal import console

        console().print(renderable)
        return
    from .._values.display import plain

    emit(command, output, plain(renderable, width=160) + "\n")
