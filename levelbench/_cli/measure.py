"""``levelbench measure 'EXPR' --setup 'CODE'``: python -m timeit, but framework-aware."""

from __future__ import annotations

import json

import click
from .._values.statements import split_call
from .common import FINDINGS, fail


@click.command("measure")
@click.argument("expr")
@click.option("-s", "--setup", multiple=True, help="Code run once before timing (may repeat).")
@click.option("--budget", type=click.FloatRange(min=0), default=5.0, show_default=True,
              help="Seconds of sampling before giving up on the CI target.")
@click.option("--ci", "rel_ci", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.01,
              show_default=True, help="Stop when the median's 95% CI is within this fraction.")
@click.option("-n", "--number", type=click.IntRange(min=1), default=None,
              help="Calls per sample (default: calibrated to ~10 ms per sample).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Also write the measurement as JSON to this file ('-' for stdout only).")
def measure_command(expr: str, setup: tuple[str, ...], budget: float, rel_ci: float, number: int | None,
                    json_path: str | None) -> None:
    """Time EXPR after running SETUP, waiting for JAX/PyTorch results, first call apart.

    \b
    Examples:
      levelbench measure 'f(x)' -s 'import jax, jax.numpy as jnp' -s 'f = jax.jit(lambda x: x @ x)' \\
                                -s 'x = jnp.ones((1000, 1000))'
      levelbench measure 'np.dot(a, b)' -s 'import numpy as np; a = b = np.ones((500, 500))'
    """
    from .._api import measure

    namespace: dict = {"__name__": "__levelbench_measure__"}
    source = "\n".join(setup)
    try:
        code = compile(source, "<setup>", "exec")
    except SyntaxError as e:
        raise click.UsageError(f"--setup is not valid Python: {e.msg} (line {e.lineno}): {e.text!r}") from None
    try:
        fn_code = compile(expr, "<expr>", "eval")
    except SyntaxError as e:
        raise click.UsageError(
            f"EXPR must be one Python expression, got {expr!r} ({e.msg}); put statements in --setup"
        ) from None
    try:
        exec(code, namespace)
    except Exception as e:
        fail(f"levelbench measure: the setup code failed: {type(e).__name__}: {e}", FINDINGS)

    try:
        fn, args, kwargs = split_call(expr, fn_code, namespace)
        m = measure(fn, *args, budget=budget, rel_ci=rel_ci, number=number, label=expr, **kwargs)
    except Exception as e:
        fail(f"levelbench measure: evaluating {expr!r} failed: {type(e).__name__}: {e}", FINDINGS)
    if json_path == "-":
        click.echo(json.dumps(m.to_dict(), indent=2, default=str))
        return
    from .._rendering.terminal import console

    console().print(m)
    if json_path:
        with open(json_path, "w") as f:
            json.dump(m.to_dict(), f, indent=2, default=str)
