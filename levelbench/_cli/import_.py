"""``levelbench import``: pytest-benchmark JSON files recorded in the results database, one run each."""

from __future__ import annotations

import click

from .common import USAGE, db_option, fail
from .store import store_errors


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@db_option
def import_command(files: tuple[str, ...], db: str | None) -> None:
    """Record pytest-benchmark JSON FILES in the results database, one run per file.

    Each benchmark becomes a result named by its full name (tests/test_x.py::test_sum), with its
    raw timings, so history, diff, report and export treat it like any run. Files are written by
    pytest --benchmark-json=PATH, or by --benchmark-autosave with --benchmark-save-data. Every
    file is checked before any is recorded.

    \b
    Examples:
      pytest --benchmark-json=bench.json && levelbench import bench.json
      levelbench import .benchmarks/*/*.json && levelbench diff
    """
    from ..store._pytest_benchmark import NotPytestBenchmark, load_pytest_benchmark, record_imported
    from ..store._store import open_store

    loaded = []
    for path in files:
        try:
            loaded.append((path, load_pytest_benchmark(path)))
        except NotPytestBenchmark as e:
            fail(f"levelbench import: {e}", USAGE)
    with store_errors("import"), open_store(db) as store:
        for path, (run, results) in loaded:
            run_id = record_imported(store, run, results)
            commit = f", commit {run['git_commit']}" if run["git_commit"] else ""
            click.echo(f"{path}: {len(results)} benchmark(s) recorded as run {run_id}{commit}")
