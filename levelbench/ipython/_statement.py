"""Turn the source a magic was given into a call to time: ``fn(*args, **kwargs)``.

``f(a, b=c)`` becomes ``(f, (a,), {"b": c})``, the function and its arguments evaluated once in
the user's namespace, so a ``jax.jit`` function gets its trace / lower / compile split and the
arguments' construction is not timed. Any other expression (``a @ b``, ``lambda: f(x)``) is
evaluated on every call, as ``%timeit`` does: timing ``lambda: f(x)`` times the creation of a
lambda, and levelbench then reports that the call returned a function (LB001). Statements
(``y = f(x)``, several lines) run as the body of a function whose result is the value of the last
expression, if the last statement is one.
"""

from __future__ import annotations

import ast
import dataclasses
import textwrap
from collections.abc import Callable
from typing import Any

from .._values.statements import split_call


class StatementError(ValueError):
    """The source is not valid Python; the magics turn it into an IPython ``UsageError``."""


@dataclasses.dataclass(frozen=True)
class Call:
    """What to time: ``fn(*args, **kwargs)``, and how to name it."""

    fn: Callable[..., Any]
    args: tuple
    kwargs: dict
    label: str


def namespace(user_ns: dict, local_ns: dict | None, setup: str) -> dict:
    """The globals to evaluate in: the user's own, or a copy when setup code or locals would leak."""
    if not setup and not local_ns:
        return user_ns
    ns = dict(user_ns)
    ns.update(local_ns or {})
    if setup:
        exec(_compile(setup, "exec", "<levelbench-setup>", "the setup code"), ns)  # noqa: S102 - the user's code
    return ns


def prepare_call(source: str, ns: dict, what: str = "the statement", magic: str = "%lbtimeit") -> Call:
    """Compile ``source`` (already transformed from IPython syntax) into a `Call` in ``ns``; ``magic``
    (the one the user typed) is named in the example of an error."""
    source = textwrap.dedent(source).strip()
    if not source:
        example = "%lbcompare jax=f(x) torch=g(xt)" if magic == "%lbcompare" else f"{magic} f(x)"
        raise StatementError(f"{what} is empty: give the code to time, e.g. {example}")
    label = label_of(source)
    try:
        code = compile(source, "<levelbench>", "eval")
    except SyntaxError:
        return Call(_statement_function(source, ns, what), (), {}, label)
    fn, args, kwargs = split_call(source, code, ns)
    return Call(fn, args, kwargs, label)  # type: ignore[arg-type]


def label_of(source: str, width: int = 60) -> str:
    lines = [line.strip() for line in source.strip().splitlines() if line.strip()]
    text = lines[0] + (" ..." if len(lines) > 1 else "") if lines else ""
    return text if len(text) <= width else text[: width - 3] + "..."


def _statement_function(source: str, ns: dict, what: str) -> Callable[[], Any]:
    """``def _(): <source>`` returning the last expression's value, with ``ns`` as its globals."""
    tree = ast.parse("def __levelbench_statement():\n    pass\n")
    body = _parse(source, what).body
    if body and isinstance(body[-1], ast.Expr):
        body[-1] = ast.copy_location(ast.Return(body[-1].value), body[-1])
    tree.body[0].body = body  # type: ignore[attr-defined]
    code = compile(ast.fix_missing_locations(tree), "<levelbench>", "exec")
    scope: dict[str, Any] = {}
    exec(code, ns, scope)  # noqa: S102 - defines the function only; its globals are the user's
    fn = scope["__levelbench_statement"]
    fn.__qualname__ = fn.__name__ = label_of(source)
    return fn


def _parse(source: str, what: str) -> ast.Module:
    try:
        return ast.parse(source, mode="exec")
    except SyntaxError as e:
        raise StatementError(f"{what} is not valid Python: {e.msg} (line {e.lineno}): {e.text!r}") from None


def _compile(source: str, mode: str, filename: str, what: str) -> Any:
    try:
        return compile(textwrap.dedent(source), filename, mode)
    except SyntaxError as e:
        raise StatementError(f"{what} is not valid Python: {e.msg} (line {e.lineno}): {e.text!r}") from None
