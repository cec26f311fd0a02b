"""``levelbench explain FILE.py:NAME`` (or ``FILE.py::NAME``): import the user's module and diagnose one of its functions.

The module provides the example arguments; the command is `levelbench.explain` plus rendering.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import click

from .._values.targets import TargetError, split_target
from .common import (FINDINGS, USAGE, choose_output, emit, fail, format_option, json_flag_option, output_option,
                     show_text)
from .isolated import Failure, default_timeout, run_in_child


# seconds the child may run: this plus TIMEOUT_PER_BUDGET x --budget (explain overruns its budget on a
# slow compile, and a fresh process imports jax first)
TIMEOUT_BASE = 120.0
TIMEOUT_PER_BUDGET = 5.0


def _budget(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if not 0 < value < math.inf:
        fail(f"levelbench explain: --budget must be a finite number of seconds > 0, got {value}: e.g. --budget 10",
             USAGE)
    return value


@click.command("explain")
@click.argument("target", metavar="FILE.py:FUNCTION")
@click.option("--args", "args_name", metavar="NAME", default=None,
              help="Module attribute holding the example arguments (default: FUNCTION_args, example_args, EXAMPLE_ARGS).")
@click.option("--scale-axis", metavar="ARG[:AXIS]", default=None,
              help="The sequence axis: argument position or name, optionally :axis (e.g. 1, X, X:0); 'off' to skip.")
@click.option("--probe", "probes", multiple=True, metavar="NAME",
              help="Run only this probe (may repeat): config, unrolled, dead, precision, transfers, compile, "
                   "retrace, dispatch, roofline, torch.")
@click.option("--quick", is_flag=True, help="Skip the expensive probes (growth with length, dispatch, roofline).")
@click.option("--budget", type=float, default=10.0, show_default=True, callback=_budget,
              help="Seconds explain may spend after the function's first call (its trace and compile); "
                   "probes that would not fit are skipped for time, with the budget that would run them.")
@click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help=f"Hard wall-clock limit: past it the work is stopped and one line says what it was doing "
                   f"(exit 1). Default {TIMEOUT_BASE:g} + {TIMEOUT_PER_BUDGET:g} x --budget; 0: no limit.")
@click.option("--no-fixes", "no_fixes", is_flag=True,
              help="Do not build and time the fixed variants (jit the outermost function, x64 on).")
@format_option(help="text: the report; json: the diagnosis with every measured number.")
@output_option()
@json_flag_option()
def explain_command(target: str, args_name: str | None, scale_axis: str | None, probes: tuple[str, ...],
                    quick: bool, budget: float, timeout: float | None, no_fixes: bool, fmt: str,
                    output: str | None, json_flag: bool) -> None:
    """Diagnose FUNCTION in FILE.py by running it: ranked findings, measured evidence, the fix.

    The target is FILE.py:FUNCTION or FILE.py::FUNCTION (the same as run -w), or package.module:FUNCTION.
    FILE.py is imported (its `if __name__ == "__main__":` block does not run) and FUNCTION is
    called with example arguments the module provides, looked up in this order:

    \b
      --args NAME          the attribute NAME
      FUNCTION_args        e.g. forward_args for forward (dots in FUNCTION become _)
      example_args         a function returning the arguments
      EXAMPLE_ARGS         a value
    Each is a tuple of positional arguments, a function returning one, or a dict
    {"args": (...), "kwargs": {...}}. A call sequence to check for recompilation, if any, is
    FUNCTION_calls / example_calls / EXAMPLE_CALLS: a list of such tuples.

    The module is imported and FUNCTION run in a child process: what they print goes to standard
    error, and an exit, a crash or --timeout stops the child, not the report (one line, exit 1).

    \b
    Example (model.py):
      def forward(params, x): ...
      def forward_args():
          return params, jnp.ones((1000, 8, 6))
    \b
      levelbench explain model.py:forward
      levelbench explain model.py::forward --scale-axis x:0 --format json -o diagnosis.json
    """
    fmt, output = choose_output("explain", fmt, output, json_flag=json_flag)
    try:
        split_target(target)
        axis = _scale_axis(scale_axis)
    except TargetError:
        fail(f"levelbench explain: expected FILE.py::FUNCTION, got {target!r} (FILE.py:FUNCTION and "
             "package.module:FUNCTION work too): e.g. levelbench explain model.py::forward", USAGE)
    except Failure as stop:
        fail(str(stop), stop.code)
    if timeout is None:
        timeout = default_timeout(budget, TIMEOUT_BASE, TIMEOUT_PER_BUDGET)
    found = run_in_child("explain", "levelbench._cli.explain:diagnose_target", dict(
        target=target, args_name=args_name, axis=axis, probes=list(probes) or None, quick=quick, budget=budget,
        fixes=not no_fixes), timeout)
    if fmt == "json":
        emit("explain", output, found["json"])
        return
    from .._results.diagnosis import Diagnosis

    show_text("explain", output, Diagnosis.from_dict(found["diagnosis"]))


def diagnose_target(report: Callable[[str], None], target: str, args_name: str | None, axis: Any,
                    probes: list[str] | None, quick: bool, budget: float, fixes: bool) -> dict[str, Any]:
    """In the child process (`levelbench._cli.isolated`): `levelbench.explain_target`; the diagnosis as a dict
    and as the JSON text to print."""
    # lazy: explain's probes (and jax) load in the child that runs the user's code, not in this process
    from .._probing import ExplainFailed, explain_target

    try:
        diagnosis = explain_target(target, args_name=args_name, scale_axis=axis, probes=probes, quick=quick,
                                   budget=budget, fixes=fixes, progress=report)
    except ExplainFailed as e:
        raise Failure(f"levelbench explain: {e}", USAGE if e.usage else FINDINGS) from None
    return {"diagnosis": diagnosis.to_dict(), "json": diagnosis.to_json()}


def _scale_axis(text: str | None) -> Any:
    if text is None:
        return None
    if text.lower() in ("off", "none", "no", "false"):
        return False
    argument, _, axis = text.partition(":")
    arg: int | str = int(argument) if argument.lstrip("-").isdigit() else argument
    if not axis:
        return arg
    if not axis.lstrip("-").isdigit():
        raise Failure(f"levelbench explain: --scale-axis {text!r}: the axis after ':' must be an integer, "
                    "e.g. X:0", USAGE)
    return (arg, int(axis))
