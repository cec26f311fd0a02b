"""What every command shares: exit codes, the ``--db`` option, one-line failures."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

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
