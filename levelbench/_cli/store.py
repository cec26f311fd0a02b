"""``levelbench history``, ``diff`` and ``export``: thin commands over `levelbench.store`.

A database problem (missing, corrupt, foreign, newer) is one line on stderr and exit code 2.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator

import click

from ..store import WRITERS
from .common import (FINDINGS, USAGE, check_output, choose_output, db_option, emit, fail, format_option,
                     json_flag_option, output_option, show_text, write_output)


@contextlib.contextmanager
def store_errors(command: str) -> Iterator[None]:
    """Turn a `StoreError` into one line on stderr and exit code 2 (no traceback)."""
    from ..store import StoreError

    try:
        yield
    except StoreError as e:
        fail(f"levelbench {command}: {e}", USAGE)


def _fraction(text: str) -> float:
    """``5%`` or ``0.05``."""
    try:
        return float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise click.BadParameter(f"expected a fraction like 0.05 or a percentage like 5%, got {text!r}") from None


@click.command("history")
@click.option("-w", "--workload", default=None, help="Only runs that ran this workload.")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=30, show_default=True,
              help="Show the newest N runs.")
@format_option()
@output_option()
@json_flag_option()
@db_option
def history_command(workload: str | None, limit: int, fmt: str, output: str | None, json_flag: bool,
                    db: str | None) -> None:
    """List recorded runs, oldest first: id, time, git commit, workloads, status, versions.

    \b
    Refer to a run by its id, or as latest, latest~1, ... in diff, export and report.
    """
    from .._rendering.store import render_history
    from ..store import open_store

    fmt, output = choose_output("history", fmt, output, json_flag=json_flag)
    with store_errors("history"), open_store(db, create=False) as store:
        runs = store.runs(workload=workload, limit=limit)
        path = store.path
    if fmt == "json":
        emit("history", output, json.dumps([r.listing() for r in runs], indent=2, default=str))
        return
    if not runs:
        from rich.text import Text

        show_text("history", output, Text(f"no runs{f' of {workload!r}' if workload else ''} recorded in {path}"))
        return
    show_text("history", output, render_history(runs))



@click.command("diff")
@click.argument("run_a", required=False)
@click.argument("run_b", required=False)
@click.option("--min-effect", default="5%", show_default=True, callback=lambda c, p, v: _fraction(v),
              help="Smallest change of the median that counts (5% or 0.05).")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level of the Mann-Whitney U test.")
@click.option("--fail-on-regression", is_flag=True,
              help="Exit with code 1 if a candidate regressed or a workload that ran before now fails (for CI).")
@format_option()
@output_option()
@json_flag_option()
@db_option
def diff_command(run_a: str | None, run_b: str | None, min_effect: float, alpha: float, fail_on_regression: bool,
                 fmt: str, output: str | None, json_flag: bool, db: str | None) -> None:
    """Compare run RUN_B (default: latest) against RUN_A candidate by candidate.

    With no runs named, the latest run is compared with the latest earlier run of the same kind
    that ran the same workloads or tests; runs of other workloads in between are passed over.
    Each candidate's raw samples from the two runs are compared with a Mann-Whitney U test; a
    change counts when it is significant and at least --min-effect. Environment differences
    (CPU, versions, flags) are named.

    \b
    Examples:
      levelbench diff                          # the latest run and the one before it of the same workloads
      levelbench diff 3 latest --fail-on-regression --min-effect 10%
    """
    from ..store import diff_runs, open_store, runs_to_diff
    from .._rendering.store import render_diff

    fmt, output = choose_output("diff", fmt, output, json_flag=json_flag)
    with store_errors("diff"), open_store(db, create=False) as store:
        before, after = runs_to_diff(store, run_a, run_b)
    try:
        diff = diff_runs(before, after, min_effect=min_effect, alpha=alpha)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    if fmt == "json":
        emit("diff", output, json.dumps(diff.to_dict(), indent=2, default=str))
    else:
        show_text("diff", output, render_diff(diff))
    if fail_on_regression and diff.has_regression:
        sys.exit(FINDINGS)


@click.command("export")
@click.argument("run", default="latest")
@format_option(tuple(WRITERS), default="json", help="; ".join(f"{name}: {what}" for name, (_, what) in WRITERS.items()) + ".")
@output_option()
@db_option
def export_command(run: str, fmt: str, output: str | None, db: str | None) -> None:
    """Export a recorded RUN (id, latest, latest~N) in --format to -o (default: standard output).

    \b
    Examples:
      levelbench export latest --format csv -o run.csv
      levelbench export latest --format pytest-benchmark -o 0002_now.json
      pytest-benchmark compare 0001_before.json 0002_now.json
      levelbench export 3 --format pyperf -o before.json && levelbench export --format pyperf -o after.json
      python -m pyperf compare_to before.json after.json
    """
    from ..store import open_store

    output = output or "-"
    check_output(output, "levelbench export -o")
    with store_errors("export"), open_store(db, create=False) as store:
        recorded = store.run(run)
    writer, _ = WRITERS[fmt]
    text = writer(recorded)
    write_output(output, text, "levelbench export -o")
