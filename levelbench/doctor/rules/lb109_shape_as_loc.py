"""LB109, shape-as-loc: the check and its fix; the rule's words are its catalogue entry.

    np.random.normal((n, n))        ->  np.random.normal(size=(n, n))
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding
from .._syntax import short

CODE = "LB109"


# Sampler -> name of its first parameter, which a shape tuple lands in by mistake.
_SAMPLERS = {
    "normal": "loc", "uniform": "low", "laplace": "loc", "logistic": "loc", "lognormal": "mean", "gumbel": "loc",
    "exponential": "scale", "gamma": "shape", "standard_gamma": "shape", "beta": "a", "poisson": "lam",
    "rayleigh": "scale", "wald": "mean", "weibull": "a", "pareto": "a", "power": "a", "chisquare": "df",
    "standard_t": "df", "binomial": "n", "geometric": "p", "vonmises": "mu", "triangular": "left",
}


_SIZE_POSITION = {"normal": 2, "uniform": 2, "laplace": 2, "logistic": 2, "lognormal": 2, "gumbel": 2, "gamma": 2,
                  "beta": 2, "wald": 2, "binomial": 2, "vonmises": 2, "triangular": 3}


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB109: ``np.random.normal((n, n))`` -- the tuple is ``loc``, not ``size``."""
    for node in ctx.program.of_type(ast.Call):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        sampler = _numpy_sampler(ctx, node)
        if sampler is None:
            continue
        first = node.args[0]
        if not isinstance(first, (ast.Tuple, ast.List)) or not first.elts:
            continue
        if any(kw.arg == "size" for kw in node.keywords) or len(node.args) > _SIZE_POSITION.get(sampler, 1):
            continue
        parameter = _SAMPLERS[sampler]
        shape = ast.unparse(first)
        yield ctx.report(
            "LB109",
            first,
            f"shape `{shape}` is passed as `{parameter}` of {short(node.func)}, not as its size: it draws "
            f"{len(first.elts)} number{'s' if len(first.elts) > 1 else ''}, not an array of shape {shape}",
            evidence=f"the first parameter of {sampler}() is `{parameter}`; the shape goes in `size=`",
            fix=f"{short(node.func)}(size={shape})\n# or: rng = np.random.default_rng(0); rng.standard_normal({shape})",
            edits=lambda: size_keyword(ctx, node, sampler),
        )


def _numpy_sampler(ctx: Context, call: ast.Call) -> str | None:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _SAMPLERS:
        return None
    qualified = ctx.names.qualname(func) or ""
    if qualified == f"numpy.random.{func.attr}":
        return func.attr
    if ctx.facts.numpy_generator(func.value):  # rng = np.random.default_rng(); rng.normal((n, n))
        return func.attr
    return None


# NumPy samplers whose first parameter has a default, so the shape can move to `size=` alone.
_DEFAULTED_FIRST = frozenset(
    {"normal", "uniform", "laplace", "logistic", "lognormal", "gumbel", "exponential", "poisson", "rayleigh"}
)


@never_hides_the_finding
def size_keyword(ctx: Context, call: ast.Call, sampler: str) -> Fix | None:
    """``np.random.normal((n, n))`` -> ``np.random.normal(size=(n, n))`` when the shape is the only argument."""
    if len(call.args) != 1 or sampler not in _DEFAULTED_FIRST:
        return None
    wrapped = ctx.editor.wrap(call.args[0], "size=", "")
    return as_fix(wrapped[:1] if wrapped else None, "pass the shape as `size=`")
