"""``levelbench measure 'EXPR' --setup 'CODE'``: python -m timeit, but framework-aware."""

from __future__ import annotations

import json
import sys

import click


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
        click.echo(f"levelbench measure: the setup code failed: {type(e).__name__}: {e}", err=True)
        sys.exit(1)

    try:
        fn, args, kwargs = _split_call(expr, fn_code, namespace)
        m = measure(fn, *args, budget=budget, rel_ci=rel_ci, number=number, label=expr, **kwargs)
    except Exception as e:
        click.echo(f"levelbench measure: evaluating {expr!r} failed: {type(e).__name__}: {e}", err=True)
        sys.exit(1)
    if json_path == "-":
        click.echo(json.dumps(m.to_dict(), indent=2, default=str))
        return
    from .._rendering.terminal import console

    console().print(m)
    if json_path:
        with open(json_path, "w") as f:
            json.dump(m.to_dict(), f, indent=2, default=str)


def _split_call(expr: str, fn_code: object, namespace: dict) -> tuple[object, tuple, dict]:
    """``f(a, b=c)`` is measured as ``measure(f, a, b=c)`` so a jitted ``f`` gets its compile split.

    Anything else (``a @ b``, ``f(*xs)``, ``obj.method(x)[0]``) is measured as an evaluation of EXPR.
    """
    import ast

    tree = ast.parse(expr, mode="eval").body
    simple = (
        isinstance(tree, ast.Call)
        and not any(isinstance(a, ast.Starred) for a in tree.args)
        and all(k.arg is not None for k in tree.keywords)
    )
    if simple:
        ev = lambda node: eval(compile(ast.Expression(node), "<expr>", "eval"), namespace)  # noqa: E731
        fn = ev(tree.func)
        return fn, tuple(ev(a) for a in tree.args), {k.arg: ev(k.value) for k in tree.keywords}

    def evaluate() -> object:
        return eval(fn_code, namespace)  # noqa: S307 - the user's own expression, as python -m timeit does

    evaluate.__qualname__ = expr
    return evaluate, (), {}
