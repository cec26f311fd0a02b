"""``levelbench measure 'EXPR' --setup 'CODE'``: python -m timeit, but framework-aware."""

from __future__ import annotations

import json

import click
from .._values.statements import split_call
from .common import FINDINGS, choose_output, fail, format_option, json_path_option, output_option, write_output


@click.command("measure")
@click.argument("expr")
@click.option("-s", "--setup", multiple=True, help="Code run once before timing (may repeat).")
@click.option("--budget", type=click.FloatRange(min=0), default=5.0, show_default=True,
              help="Seconds of sampling before giving up on the CI target.")
@click.option("--ci", "rel_ci", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.01,
              show_default=True, help="Stop when the median's 95% CI is within this fraction.")
@click.option("-n", "--number", type=click.IntRange(min=1), default=None,
              help="Calls per sample (default: calibrated to ~10 ms per sample).")
@format_option(help="What -o receives: text (the report, as shown) or json (the measurement, raw samples "
                    "included). With json on standard output, the report is not printed.")
@output_option(help="Write the measurement in --format to PATH, whole or not at all; the report still shows here "
                    "(default or '-': standard output).")
@json_path_option()
def measure_command(expr: str, setup: tuple[str, ...], budget: float, rel_ci: float, number: int | None,
                    fmt: str, output: str | None, json_path: str | None) -> None:
    """Time EXPR after running SETUP, waiting for JAX/PyTorch results, first call apart.

    \b
    Examples:
      levelbench measure 'f(x)' -s 'import jax, jax.numpy as jnp' -s 'f = jax.jit(lambda x: x @ x)' \\
                                -s 'x = jnp.ones((1000, 1000))'
      levelbench measure 'np.dot(a, b)' -s 'import numpy as np; a = b = np.ones((500, 500))'
      levelbench measure 'np.sort(a)' -s 'import numpy as np; a = np.random.rand(10**6)' --format json -o m.json
    """
    from .._api import measure

    fmt, output = choose_output("measure", fmt, output, json_path=json_path)
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
    doc = json.dumps(m.to_dict(), indent=2, default=str)
    if fmt == "json" and output == "-":
        click.echo(doc)
        return
    from .._rendering.terminal import console

    console().print(m)
    if output != "-":
        from .._values.display import text

        write_output(output, doc if fmt == "json" else text(m, width=160) + "\n", "levelbench measure -o")
