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
    from ..store import (NotPytestBenchmark, converted, imported_before, load_pytest_benchmark,
                                           record_imported)
    from ..store import open_store

    loaded = []
    for path in files:
        try:
            run, results = load_pytest_benchmark(path, max_bytes)
            loaded.append((path, run, converted(results)))
        except NotPytestBenchmark as e:
            fail(f"levelbench import: {e}", USAGE)
        except MemoryError:  # bounded (--max-bytes, no per-sample bootstrap), but a small machine may still run out
            fail(f"levelbench import: not enough memory to read and convert {path}; nothing was recorded: import it "
                 "on a machine with more memory, or split its benchmarks over several files", USAGE)
    with store_errors("import"), open_store(db) as store:
        seen: dict[str, tuple[str, int]] = {}
        for path, run, documents in loaded:
            digest = run["environment"]["imported"]["sha256"]
            if digest in seen:
                first, run_id = seen[digest]
                same = "given again" if first == path else f"the same file as {first}"
                click.echo(f"{path}: {same}, recorded as run {run_id}: not recorded again")
                continue
            before = imported_before(store, run)
            if before is not None:
                click.echo(f"{path}: already imported as run {before}: not recorded again")
                seen[digest] = (path, before)
                continue
            run_id = record_imported(store, run, documents)
            seen[digest] = (path, run_id)
            commit = f", commit {run['git_commit']}" if run["git_commit"] else ""
            dated = "" if run["started"] is not None else ", dated now (the file has no datetime)"
            click.echo(f"{path}: {len(documents)} benchmark(s) recorded as run {run_id}{commit}{dated}")
