"""``levelbench import``: pytest-benchmark JSON files recorded in the results database, one run each."""

from __future__ import annotations

import click

from ..store import MAX_IMPORT_BYTES
from .common import USAGE, db_option, fail
from .store import store_errors


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--max-bytes", type=click.IntRange(min=1), default=MAX_IMPORT_BYTES, show_default=True,
              help="Refuse files larger than this.")
@db_option
def import_command(files: tuple[str, ...], max_bytes: int, db: str | None) -> None:
    """Record pytest-benchmark JSON FILES in the results database, one run per file.

    Each benchmark becomes a result named by its full name (tests/test_x.py::test_sum), with its
    raw timings, so history, diff, report and export treat it like any run. Files are written by
    pytest --benchmark-json=PATH, or by --benchmark-autosave with --benchmark-save-data. Every
    file is read, checked and converted before any is recorded; a file imported before (the same
    bytes) is not recorded again.

    \b
    Examples:
      pytest --benchmark-json=bench.json && levelbench import bench.json
      levelbench import .benchmarks/*/*.json && levelbench diff
    """
    from ..store import Imported, NotPytestBenchmark, import_files

    def say(imported: Imported) -> None:
        path, run_id = imported.path, imported.run_id
        if imported.not_again == "already imported":
            click.echo(f"{path}: already imported as run {run_id}: not recorded again")
        elif imported.not_again:
            click.echo(f"{path}: {imported.not_again}, recorded as run {run_id}: not recorded again")
        else:
            commit = f", commit {imported.git_commit}" if imported.git_commit else ""
            dated = "" if imported.dated else ", dated now (the file has no datetime)"
            click.echo(f"{path}: {imported.benchmarks} benchmark(s) recorded as run {run_id}{commit}{dated}")

    try:
        with store_errors("import"):
            import_files(files, db, max_bytes, on_file=say)
    except (NotPytestBenchmark, MemoryError) as e:
        fail(f"levelbench import: {e}", USAGE)
