"""LB108, float64-without-x64: the check and its fix; the rule's words are its catalogue entry.

    jnp.float64 without x64         ->  jax.config.update("jax_enable_x64", True) at the top  (unsafe)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding
from .._facts import NUMPY_GENERATORS
from .._syntax import enclosing_function, short

CODE = "LB108"


_JAX_WIDE = frozenset({"jax.numpy.float64", "jax.numpy.double", "jax.numpy.complex128", "jax.numpy.cdouble"})


_NUMPY_WIDE = frozenset({"numpy.float64", "numpy.double", "numpy.complex128", "numpy.cdouble", "builtins.complex"})


_WIDE_STRINGS = frozenset({"float64", "f8", "double", "complex128", "c16", "<f8"})


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB108: float64 asked of JAX in a file that never enables x64; once per file, at the first request.

    Only where the file runs code (`Context.runs_here`), and not in library functions
    (`Context.callers_decide`): a library that asks for float64 leaves x64 to the program that calls it. A
    program's own functions (`Context.is_program`: a script or notebook) run under its settings whoever calls
    them, so there the request counts wherever it is written. A test file's tests run here too: there the one
    reading is code written once for NumPy and JAX (`_each_framework_converts`).
    """
    if ctx.facts.x64 or "jax" not in ctx.facts.frameworks:
        return
    if not ctx.runs_here:
        yield from _each_framework_converts(ctx)  # a test file: the tests run here, its other functions do not
        return
    requests: list[ast.AST] = []
    for node in ctx.program.of_type(ast.Attribute, ast.Call):
        culprit: ast.AST | None = None
        if isinstance(node, ast.Attribute) and ctx.names.qualname(node) in _JAX_WIDE and _requests(ctx, node):
            culprit = node
        elif isinstance(node, ast.Call):
            culprit = _wide_dtype_argument(ctx, node)
        if culprit is not None and _importers_decide(ctx, culprit):
            continue  # a library function: the program that calls it decides whether x64 is on
        if culprit is not None and all(culprit is not r for r in requests):
            requests.append(culprit)
    implicit = not requests
    why = "the file compares JAX with NumPy at default tolerances"
    if implicit:
        requests = _compared_float64_conversions(ctx)
    if implicit and not requests:
        requests = _conversions_timed_beside_float64_baselines(ctx)
        why = "the file times it beside a callable that is not JAX, handed float64 NumPy arrays"
    if implicit and not requests:
        yield from _each_framework_converts(ctx)
        return
    if not requests:
        return
    yield _report(ctx, requests, why if implicit else None)


def _each_framework_converts(ctx: Context) -> Iterator[Diagnostic]:
    """Float64 asked of JAX implicitly by code written once for several frameworks: ``xp.asarray(a)`` of a float64
    NumPy array, ``xp`` each of NumPy, PyTorch and ``jax.numpy`` (a parametrized test, a loop over modules). The
    same code then computes in float64 under NumPy and PyTorch and in float32 under JAX, and what it times or
    checks compares the two precisions (bench_playground's matmul benchmark, case 250). Only where the code runs
    here: a program's, or a test's."""
    requests = [
        call for call in ctx.program.of_type(ast.Call)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("asarray", "array")
        and call.args and not any(k.arg == "dtype" for k in call.keywords)
        and _jax_among_others(ctx.facts.library_values(call.func.value))
        and not ctx.callers_decide(call) and _numpy_float64(ctx, call.args[0])
    ]
    if requests:
        yield _report(ctx, requests, "the same code runs it under NumPy or PyTorch, which keep float64")


def _jax_among_others(modules: list[str]) -> bool:
    return "jax.numpy" in modules and any(m in ("numpy", "torch") for m in modules)


def _report(ctx: Context, requests: list[ast.AST], implicit: str | None) -> Diagnostic:
    first = requests[0]
    evidence = "no jax.config.update('jax_enable_x64', True) (or JAX_ENABLE_X64) anywhere in the file"
    if len(requests) > 1:
        others = ", ".join(ctx.where(r) for r in requests[1:4]) + (", ..." if len(requests) > 4 else "")
        evidence += f"; float64 is also requested at {others}"
    requested = (
        f"float64 asked for implicitly (`{short(first, 30)}` turns a float64 NumPy array into a JAX array, and "
        f"{implicit})" if implicit else f"float64 requested (`{short(first, 30)}`)"
    )
    return ctx.report(
        "LB108",
        first,
        f"{requested} but `jax_enable_x64` is never set in this file: JAX silently computes in float32",
        evidence=evidence,
        fix='jax.config.update("jax_enable_x64", True)  # at the top, before creating arrays',
        edits=lambda: enable_x64(ctx),
    )


# NumPy makes these float64 when no dtype is written.
_NUMPY_FLOAT_DEFAULT = frozenset(
    {"numpy.random.rand", "numpy.random.randn", "numpy.random.random", "numpy.random.random_sample",
     "numpy.random.normal", "numpy.random.uniform", "numpy.random.standard_normal", "numpy.linspace", "numpy.ones",
     "numpy.zeros", "numpy.eye", "numpy.identity", "numpy.empty"}
)
_TO_JAX = frozenset({"jax.numpy.asarray", "jax.numpy.array", "jax.device_put"})
# Comparisons at NumPy's default tolerances (rtol 1e-5, atol 1e-8), tighter than float32 rounding of a product.
_STRICT_COMPARISONS = frozenset(
    {"numpy.allclose", "numpy.isclose", "numpy.testing.assert_allclose", "numpy.testing.assert_array_equal",
     "numpy.testing.assert_equal", "numpy.array_equal", "jax.numpy.allclose", "jax.numpy.isclose",
     "jax.numpy.array_equal"}
)


def _compared_float64_conversions(ctx: Context) -> list[ast.AST]:
    """Float64 asked of JAX implicitly: NumPy arrays that are float64 by NumPy's default (no dtype written) turned
    into JAX arrays, in a file that compares a JAX value with a NumPy one at the default tolerances. The
    comparison says the float64 reference is the intent; JAX, with x64 off, computed in float32 (jax-ml/jax#9973:
    "TPU cannot do simple arithmetic!"). A comparison given its own ``rtol``/``atol`` has allowed for float32."""
    if not any(_strict_mixed_comparison(ctx, c) for c in ctx.program.of_type(ast.Call)):
        return []
    return [
        call for call in ctx.program.of_type(ast.Call)
        if isinstance(call, ast.Call) and ctx.names.qualname(call.func) in _TO_JAX and call.args
        and not any(k.arg == "dtype" for k in call.keywords) and _numpy_float64(ctx, call.args[0])
        and not _importers_decide(ctx, call)
    ]


def _conversions_timed_beside_float64_baselines(ctx: Context) -> list[ast.AST]:
    """Float64 asked of JAX implicitly in a timed comparison: a function that a timing runs turns arrays its callers
    hand it, float64 NumPy arrays, into JAX arrays (``X = jnp.array(X)``), and the file also times another callable,
    not JAX, handed float64 NumPy arrays (a NumPy or C++ baseline of the same algorithm: gradi-mojo's benchmarks,
    case 334). The figures then compare a float32 JAX computation with float64 ones."""
    facts = ctx.facts
    # each timed call with what it may run: its callee, or what the callers of a helper hand it (`fn(X, D)`)
    timed = [(c, v) for r in ctx.regions for c in ctx.timed_calls(r) for v in facts.passed_functions(c) or [c.func]]
    if len(timed) < 2:
        return []
    runs = {id(f): f for _, v in timed if (f := facts.function_of(v)) is not None}
    requests = [
        call for call in ctx.program.of_type(ast.Call)
        if isinstance(call, ast.Call) and ctx.names.qualname(call.func) in _TO_JAX and call.args
        and not any(k.arg == "dtype" for k in call.keywords)
        and id(enclosing_function(ctx.program, call)) in runs and not _importers_decide(ctx, call)
        and _numpy_float64(ctx, call.args[0], callers=True)
    ]
    if not requests:
        return []
    converting = {id(enclosing_function(ctx.program, r)) for r in requests}
    baseline = any(
        id(facts.function_of(v)) not in converting and facts.jitted_key_of(v) is None
        and (v is not c.func or (facts.jitted_key(c) is None and ctx.kinds.of(c) != "jax"))
        and any(_numpy_float64(ctx, a, callers=True) for a in c.args)
        for c, v in timed
    )
    return requests if baseline else []


def _given(ctx: Context, name: ast.Name) -> list[ast.expr] | None:
    """What the callers hand the parameter ``name`` where no binding in its function comes before the read
    (``X = jnp.array(X)`` reads the parameter); None when ``name`` is no such parameter."""
    values = ctx.facts.argument_values(name)
    if values is None:
        return None
    function = enclosing_function(ctx.program, name)
    statement = next(a for a in [name, *ctx.program.ancestors(name)] if isinstance(a, ast.stmt))
    where = (statement.lineno, statement.col_offset)  # `X = jnp.array(X)` reads X before its own statement binds it
    stored = any(
        isinstance(n, ast.Name) and n.id == name.id and isinstance(n.ctx, ast.Store) and (n.lineno, n.col_offset) < where
        for n in ast.walk(function)  # type: ignore[arg-type]
    )
    return None if stored else values


def _importers_decide(ctx: Context, node: ast.AST) -> bool:
    """``node`` is in a library function of a module that others import: they set x64 (or not) before calling it.
    A function of a program (a script, a notebook) runs under the program's settings, called here or not."""
    return ctx.callers_decide(node) and not ctx.is_program


def _strict_mixed_comparison(ctx: Context, call: ast.AST) -> bool:
    if not isinstance(call, ast.Call) or ctx.names.qualname(call.func) not in _STRICT_COMPARISONS:
        return False
    if any(k.arg in ("rtol", "atol", "decimal") for k in call.keywords) or len(call.args) != 2:
        return False
    kinds = {ctx.kinds.of(a) for a in call.args}
    return kinds == {"jax", "numpy"}


def _numpy_float64(ctx: Context, expr: ast.AST, depth: int = 0, *, callers: bool = False) -> bool:
    """``expr`` is a NumPy array of float64 that no dtype asked for: ``np.random.rand(3)``, ``np.array([[0.3, 0.1]])``.
    With ``callers``, also what every caller hands a parameter, a ``.copy()`` of such an array, and a NumPy array
    asked for float64 (``np.array(D, dtype=np.float64)``)."""
    if isinstance(expr, ast.Name) and depth < (6 if callers else 3):
        values = _given(ctx, expr) if callers else None
        if values is None:
            values = ctx.facts.bindings.values_at(expr.id, expr)
        return bool(values) and all(_numpy_float64(ctx, v, depth + 1, callers=callers) for v in values)
    if not isinstance(expr, ast.Call):
        return False
    qualified = ctx.names.qualname(expr.func)
    if callers and isinstance(expr.func, ast.Attribute) and expr.func.attr == "copy" and not expr.args and depth < 6:
        return _numpy_float64(ctx, expr.func.value, depth + 1, callers=True)
    if callers and qualified in ("numpy.array", "numpy.asarray"):
        dtype = next((k.value for k in expr.keywords if k.arg == "dtype"), None)
        if dtype is not None:
            return _is_wide(ctx, dtype)
    if any(k.arg == "dtype" for k in expr.keywords):
        return False
    if qualified in _NUMPY_FLOAT_DEFAULT or _generator_draw(ctx, expr):
        return True
    return qualified in ("numpy.array", "numpy.asarray") and bool(expr.args) and _float_literals(expr.args[0])


# NumPy `Generator` and `RandomState` methods that draw float64 when no dtype is written.
_GENERATOR_FLOAT_DRAWS = frozenset(
    {"random", "uniform", "normal", "standard_normal", "exponential", "standard_exponential", "rand", "randn",
     "random_sample"}
)


def _generator_draw(ctx: Context, call: ast.Call) -> bool:
    """``rng.uniform(size=(n, n))`` with ``rng = np.random.default_rng(123)``: float64 samples."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in _GENERATOR_FLOAT_DRAWS):
        return False
    maker = func.value
    if isinstance(maker, ast.Name):
        values = ctx.facts.bindings.values_at(maker.id, maker)
        if len(values) != 1:
            return False
        maker = values[0]
    return isinstance(maker, ast.Call) and ctx.names.qualname(maker.func) in NUMPY_GENERATORS


def _float_literals(display: ast.AST) -> bool:
    """A nested list or tuple of numbers with at least one float: NumPy makes it float64."""
    constants = [n for n in ast.walk(display) if isinstance(n, ast.Constant)]
    containers_only = all(
        isinstance(n, (ast.List, ast.Tuple, ast.Constant, ast.UnaryOp, ast.USub, ast.Load)) for n in ast.walk(display)
    )
    return containers_only and any(isinstance(c.value, float) for c in constants) and all(
        isinstance(c.value, (int, float)) and not isinstance(c.value, bool) for c in constants
    )


def _requests(ctx: Context, dtype: ast.AST) -> bool:
    """``jnp.float64`` used to ask JAX for a dtype (``dtype=``, an argument, ``jnp.float64(1.0)``), not compared,
    and not handed to NumPy (``onp.array(a, dtype=jnp.float64)`` is a NumPy float64 array)."""
    parent = ctx.program.parent(dtype)
    if isinstance(parent, ast.keyword):
        if parent.arg != "dtype":
            return False
        parent = ctx.program.parent(parent)
    elif not isinstance(parent, ast.Call) or dtype is parent.func:
        return isinstance(parent, ast.Call)
    return isinstance(parent, ast.Call) and not _numpy_call(ctx, parent) and not _inspects_dtypes(ctx, parent)


# Calls that look a dtype up (`jax.dtypes.canonicalize_dtype(jnp.float64)` asks whether x64 is on) rather
# than make arrays of it.
_DTYPE_QUERIES = ("jax.dtypes.", "jax.numpy.dtype", "jax.numpy.finfo", "jax.numpy.iinfo", "jax.numpy.issubdtype",
                  "jax.numpy.result_type", "jax.numpy.promote_types", "jax.numpy.can_cast")


def _inspects_dtypes(ctx: Context, call: ast.Call) -> bool:
    return (ctx.names.qualname(call.func) or "").startswith(_DTYPE_QUERIES)


def _numpy_call(ctx: Context, call: ast.Call) -> bool:
    if (ctx.names.qualname(call.func) or "").startswith("numpy."):
        return True
    return isinstance(call.func, ast.Attribute) and ctx.kinds.of(call.func.value) == "numpy"


def _wide_dtype_argument(ctx: Context, call: ast.Call) -> ast.AST | None:
    """``dtype=np.float64`` given to a JAX function, or ``.astype("float64")`` on a JAX value."""
    qualified = ctx.names.qualname(call.func) or ""
    if qualified.startswith("jax."):
        for kw in call.keywords:
            if kw.arg == "dtype" and _is_wide(ctx, kw.value):
                return kw.value
    if isinstance(call.func, ast.Attribute) and call.func.attr == "astype" and call.args:
        if ctx.kinds.of(call.func.value) == "jax" and _is_wide(ctx, call.args[0]):
            return call.args[0]
    return None


def _is_wide(ctx: Context, node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip().lower() in _WIDE_STRINGS
    qualified = ctx.names.qualname(node)
    return qualified in _JAX_WIDE or qualified in _NUMPY_WIDE


@never_hides_the_finding
def enable_x64(ctx: Context) -> Fix | None:
    """``jax.config.update("jax_enable_x64", True)`` after the file's leading imports."""
    editor = ctx.editor
    point = editor.import_point()
    if point is None:
        return None
    line, after = point
    name = editor.module_name("jax", (line + (1 if after else 0), 0))
    text = 'jax.config.update("jax_enable_x64", True)'
    if name is None:
        if not ctx.names.free_for("jax", "jax"):
            return None
        text = "import jax\n" + text
    else:
        text = text.replace("jax.", f"{name}.", 1)
    return as_fix([editor.add_lines_at_top(text)], "enable float64 in JAX before any array is made")
