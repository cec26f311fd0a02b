"""``levelbench measure 'EXPR' --setup 'CODE'``: python -m timeit, but framework-aware."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from .._values.settings import MEASURING
from .common import FINDINGS, USAGE, choose_output, fail, format_option, json_path_option, output_option, write_output
from .isolated import Failure, default_timeout, run_in_child

if TYPE_CHECKING:
    from .._results.measurement import Measurement


# seconds the child may run: this plus TIMEOUT_PER_BUDGET x --budget (a first call, a slow calibration and
# the minimum number of samples come on top of the budget)
TIMEOUT_BASE = 60.0
TIMEOUT_PER_BUDGET = 5.0


def _budget(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if math.isnan(value) or value < 0:
        fail(f"levelbench measure: --budget must be a number of seconds >= 0, got {value}: e.g. --budget 5", USAGE)
    return value


def _number(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and value < 1:
        fail(f"levelbench measure: -n must be at least 1 call per sample, got {value}; leave -n out to calibrate it",
             USAGE)
    if value is not None and value > MEASURING.max_number:
        fail(f"levelbench measure: -n must be calls per sample from 1 to {MEASURING.max_number:,}, got {value}: "
             "more would make one sample outlast any budget (10^9 calls take 1 s even at 1 ns each); leave -n out "
             "to calibrate it to ~10 ms per sample", USAGE)
    return value


@click.command("measure")
@click.argument("expr")
@click.option("-s", "--setup", multiple=True, help="Code run once before timing (may repeat).")
@click.option("--budget", type=float, default=5.0, show_default=True, callback=_budget,
              help="Seconds of sampling before giving up on the CI target.")
@click.option("--ci", "rel_ci", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.01,
              show_default=True, help="Stop when the median's 95% CI is within this fraction.")
@click.option("-n", "--number", type=int, default=None, callback=_number,
              help=f"Calls per sample, 1 to {MEASURING.max_number:.0e} (default: calibrated to ~10 ms per sample).")
@click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help=f"Hard wall-clock limit: past it the code is stopped and one line says what it was doing "
                   f"(exit 1). Default {TIMEOUT_BASE:g} + {TIMEOUT_PER_BUDGET:g} x --budget (none for --budget inf); "
                   "0: no limit.")
@format_option(help="What -o receives: text (the report, as shown) or json (the measurement, raw samples "
                    "included). With json on standard output, the report is not printed.")
@output_option(help="Write the measurement in --format to PATH, whole or not at all; the report still shows here "
                    "(default or '-': standard output).")
@json_path_option()
def measure_command(expr: str, setup: tuple[str, ...], budget: float, rel_ci: float, number: int | None,
                    timeout: float | None, fmt: str, output: str | None, json_path: str | None) -> None:
    """Time EXPR after running SETUP, waiting for JAX/PyTorch results, first call apart.

    SETUP and EXPR run in a child process: what they print goes to standard error (standard output
    holds only the report or the JSON), and an exit, a crash or --timeout stops the child, not the
    report (one line, exit 1).

    \b
    Examples:
      levelbench measure 'f(x)' -s 'import jax, jax.numpy as jnp' -s 'f = jax.jit(lambda x: x @ x)' \\
                                -s 'x = jnp.ones((1000, 1000))'
      levelbench measure 'np.dot(a, b)' -s 'import numpy as np; a = b = np.ones((500, 500))'
      levelbench measure 'np.sort(a)' -s 'import numpy as np; a = np.random.rand(10**6)' --format json -o m.json
    """
    fmt, output = choose_output("measure", fmt, output, json_path=json_path)
    source = "\n".join(setup)
    try:
        compile(source, "<setup>", "exec")
    except SyntaxError as e:
        raise click.UsageError(f"--setup is not valid Python: {e.msg} (line {e.lineno}): {e.text!r}") from None
    try:
        compile(expr, "<expr>", "eval")
    except SyntaxError as e:
        raise click.UsageError(
            f"EXPR must be one Python expression, got {expr!r} ({e.msg}); put statements in --setup"
        ) from None
    if timeout is None:
        timeout = default_timeout(budget, TIMEOUT_BASE, TIMEOUT_PER_BUDGET)
    m, doc = run_in_child("measure", "levelbench._cli.measure:measure_in_child",
                          dict(expr=expr, source=source, budget=budget, rel_ci=rel_ci, number=number), timeout)
    if fmt == "json" and output == "-":
        click.echo(doc)
        return
    from .._rendering.terminal import console

    console().print(m)
    if output != "-":
        from .._values.display import text

        write_output(output, doc if fmt == "json" else text(m, width=160) + "\n", "levelbench measure -o")


def measure_in_child(report: Callable[[str], None], expr: str, source: str, budget: float, rel_ci: float,
                     number: int | None) -> tuple[Measurement, str]:
    """In the child process (`levelbench._cli.isolated`): `levelbench.measure_expression`; the measurement and
    its JSON."""
    # lazy: the measuring engine loads in the child that times the code, not in the command's own process
    from .._api import ExpressionFailed, measure_expression as measure

    try:
        m = measure(expr, source, progress=report, budget=budget, rel_ci=rel_ci, number=number)
    except ExpressionFailed as e:
        raise Failure(f"levelbench measure: {e}", FINDINGS) from None
    return m, json.dumps(m.to_dict(), indent=2, default=str)
