"""A Python expression given as text, turned into the call to time (``levelbench measure``, ``%lbtimeit``)."""

from __future__ import annotations

import ast


def split_call(expr: str, fn_code: object, namespace: dict) -> tuple[object, tuple, dict]:
    """``f(a, b=c)`` is measured as ``measure(f, a, b=c)`` so a jitted ``f`` gets its compile split.

    Anything else (``a @ b``, ``f(*xs)``, ``obj.method(x)[0]``) is measured as an evaluation of EXPR.
    """
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
