"""LB106, python-loop-under-jit: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic
from .._facts import JitSite
from .._fixes import vmap_fix
from .._rewrite import loop_rewrite
from .._syntax import COMPREHENSIONS, LOOPS, enclosing_function, local_walk, short, walk_code
from .._vocabulary import COUNT_METHODS, DEVICE_COUNTS, JAX_OPS, STRUCTURAL, site_text

CODE = "LB106"


_SMALL_RANGE = 16


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB106: a Python loop over array data or a data-sized range inside a function that runs under jit,
    and the implicit loops of builtins (``sum(x)``) and comprehensions over an array."""
    for function, site in ctx.facts.traced_defs.items():
        name = getattr(function, "name", "<lambda>")
        where = f"jitted `{name}`" if site.direct else f"`{name}` (traced by jitted `{site.caller}`)"
        data = _DataView(ctx, function, site)
        reported: set[int] = set()
        for loop in local_walk(ctx.program, function):
            if isinstance(loop, LOOPS):
                over = _iterates_over_data(ctx, data, loop)
                if over is not None:
                    yield _loop_finding(ctx, site, name, where, loop, over)
            elif isinstance(loop, COMPREHENSIONS) and id(loop) not in reported and _computes_per_element(loop):
                over = _iterates_over_data(ctx, data, _fake_for(loop.generators[0].iter))
                if over is not None:
                    yield _implicit_finding(ctx, site, name, where, loop, "a comprehension", over, vmap_fix(loop))
            elif isinstance(loop, ast.Call) and (builtin := _iterating_builtin(ctx, loop)) is not None:
                argument = loop.args[0]
                if isinstance(argument, COMPREHENSIONS):
                    over = _iterates_over_data(ctx, data, _fake_for(argument.generators[0].iter))
                    reported.add(id(argument))
                else:
                    over = _iterates_over_data(ctx, data, _fake_for(argument))
                if over is not None:
                    replacement = _ARRAY_BUILTINS[builtin]
                    fix = f"{replacement}({short(argument, 50)})" if "(" not in replacement else replacement
                    yield _implicit_finding(ctx, site, name, where, loop, f"the builtin `{builtin}`", over, fix)


def _loop_finding(
    ctx: Context, site: JitSite, name: str, where: str, loop: ast.For | ast.AsyncFor | ast.While, over: str
) -> Diagnostic:
    flax = any(isinstance(n, ast.Call) and ctx.facts.is_flax_call(n) for n in walk_code(ctx.program, loop.body))
    keyword = "while" if isinstance(loop, ast.While) else "for"
    message = (
        f"Python `{keyword}` loop over {over} inside {where}: it is unrolled at trace time, one copy of "
        "the body per step, so compile time grows with the loop length"
    )
    if flax:
        message += " (a Flax module is applied at every step)"
    replacement = "jax.lax.while_loop" if keyword == "while" else "jax.lax.scan"
    return ctx.report(
        "LB106",
        loop,
        message,
        end=loop.test if isinstance(loop, ast.While) else loop.iter,
        evidence=f"`{name}` runs under jit: {site_text(ctx, site)}; rewrite the loop with {replacement}",
        fix=loop_rewrite(loop, ctx.names, flax=flax),
    )


def _implicit_finding(
    ctx: Context, site: JitSite, name: str, where: str, node: ast.AST, how: str, over: str, fix: str
) -> Diagnostic:
    return ctx.report(
        "LB106",
        node,
        f"{how} iterates over {over} element by element inside {where}: Python unrolls it at trace time, one "
        "operation per element, so compile time grows with the array's length",
        evidence=f"`{name}` runs under jit: {site_text(ctx, site)}; iterating over a traced array indexes it "
        "once per element",
        fix=fix,
    )


def _computes_per_element(comprehension: ast.AST) -> bool:
    """The element is computed from the loop variable (``[f(v) for v in x]``), not a constant list entry."""
    targets = {n.id for g in comprehension.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    element = [comprehension.key, comprehension.value] if isinstance(comprehension, ast.DictComp) else [comprehension.elt]
    uses = {n.id for e in element for n in ast.walk(e) if isinstance(n, ast.Name)}
    return bool(targets & uses)


# Builtins that iterate over their argument, and what does the same on a whole array.
_ARRAY_BUILTINS = {
    "sum": "jnp.sum", "min": "jnp.min", "max": "jnp.max", "any": "jnp.any", "all": "jnp.all", "sorted": "jnp.sort",
    "list": "jnp.asarray", "tuple": "jnp.asarray", "enumerate": "jax.lax.scan(step, carry, (jnp.arange(n), xs))",
}


# JAX functions that take an array argument apart into one operand per row themselves.
_UNPACKING = frozenset({"jax.numpy.lexsort"})


def _iterating_builtin(ctx: Context, call: ast.Call) -> str | None:
    qualified = ctx.names.qualname(call.func) or ""
    name = qualified.removeprefix("builtins.")
    if qualified.startswith("builtins.") and name in _ARRAY_BUILTINS and len(call.args) == 1:
        parent = ctx.program.parent(call)
        if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is call:
            return None  # `for i, v in enumerate(x)`: the loop is the finding
        if isinstance(parent, ast.Subscript) and parent.slice is call:
            return None  # `weights[tuple(idx)]`: an index tuple holds one entry per indexed axis, at most the rank
        while isinstance(parent, ast.Subscript) and parent.value is call:
            call, parent = parent, ctx.program.parent(parent)  # `list(x.T)[::-1]`
        if isinstance(parent, ast.Call) and call in parent.args and ctx.names.qualname(parent.func) in _UNPACKING:
            return None  # `jnp.lexsort(list(x.T))`: lexsort takes its keys apart itself, an array as much as a list
        return name
    return None


class _DataView:
    """What, inside one traced function, is array data: its non-static arguments (directly jitted), or
    arguments used as arrays or given arrays at their call sites (traced helpers, whose arguments may
    just as well be Python structure).

    In a library function (`Context.callers_decide`) the callers choose the arguments: an argument is data
    only when the function uses it as an array, and a trip count only when it is a constant (in the code or
    at module level) or an array's size, whatever the callers pass."""

    def __init__(self, ctx: Context, function: ast.AST, site: JitSite) -> None:
        self.ctx = ctx
        self.function = function
        self.site = site
        self.library = ctx.callers_decide(function)
        self.parameters = _parameters(function) - _static_parameters(ctx, function, site)
        self._arrays: set[str] | None = None
        self._concrete: set[str] | None = None
        self._sequences: frozenset[str] | None = None

    def is_array_argument(self, name: str) -> bool:
        if name not in self.parameters:
            return False
        if self._concrete is None:
            self._concrete = _given_to_numpy(self.ctx, self.function)
        if name in self._concrete:
            return False
        if self._sequences is None:
            self._sequences = self.ctx.kinds.given_sequences(self.function)
        if name in self._sequences and name not in self._array_parameters():
            return False  # every caller passes a tuple or list of leaves, never used as one array: structure
        if self.site.direct and not self.library:
            return True
        return name in self._array_parameters()

    def is_record_list(self, name: str) -> bool:
        """An argument the function never uses as one array (``x.shape``, ``jnp.sin(x)``, ``x * 2``) and no caller
        gives an array: what it iterates with unpacking is a list of records (a pytree), not an array's rows."""
        return name in self.parameters and name not in self._array_parameters()

    def _array_parameters(self) -> set[str]:
        if self._arrays is None:
            self._arrays = _array_parameters(self.ctx, self.function, self.parameters)
        return self._arrays


def _iterates_over_data(ctx: Context, data: _DataView, loop: ast.For | ast.AsyncFor | ast.While) -> str | None:
    """A short description of what the loop walks when that is array data or a data-sized range, None for
    Python structure (layers, params, pytree leaves, ``range(x.ndim)``) or a small literal range."""
    if isinstance(loop, ast.While):
        if _geometric(loop):
            return None  # `while p < n: p *= 2`: log2 of the bound, a handful of steps for any size
        return f"`{short(loop.test, 40)}`" if _data_sized_test(ctx, data, loop.test) else None
    iterable = loop.iter
    text = short(iterable, 50)
    if STRUCTURAL.search(text):
        return None
    wrappers = ("builtins.enumerate", "builtins.zip", "builtins.reversed")
    if isinstance(iterable, ast.Call) and ctx.names.qualname(iterable.func) in wrappers:
        inner = [_iterates_over_data(ctx, data, _fake_for(arg)) for arg in iterable.args]
        return f"`{text}`" if any(inner) else None
    counting = ("builtins.range", "jax.numpy.arange") if data.library else ("builtins.range",)
    if isinstance(iterable, ast.Call) and ctx.names.qualname(iterable.func) in counting and not iterable.keywords:
        bounds = [int_value(ctx, a) for a in iterable.args]
        if None not in bounds:
            steps = len(range(*bounds)) if bounds and (len(bounds) < 3 or bounds[2]) else 0
            return f"`{text}` ({steps} steps)" if steps > _SMALL_RANGE else None
        if any(_structural_bound(ctx, a) for a in iterable.args):
            return None
        if data.library and not any(_data_size(ctx, data, a) for a in iterable.args):
            return None  # `range(n)`, `range(-k, k)`: the callers' count, as small as they make it
        return f"`{text}`"
    if ctx.kinds.is_structure_sequence(iterable):
        return None  # `for i, xi in enumerate(jnp.broadcast_arrays(*xs))`: one step per argument
    if isinstance(iterable, ast.Name) and _unpacks_records(loop) and data.is_record_list(iterable.id):
        return None  # `for W, b in θ`: each element is a record of a few arrays (a layer's), so a pytree
    if ctx.kinds.of(iterable) == "jax":
        return f"`{text}`"
    root = iterable
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        if isinstance(root, ast.Attribute) and root.attr == "shape":
            return None  # `list(x.shape)`, `zip(x.shape, factors)`: the dimensions, a handful of numbers
        root = root.value
    if isinstance(root, ast.Name) and data.is_array_argument(root.id):
        return f"the argument `{text}`" if root is iterable else f"`{text}`"
    return None


_SCALINGS = (ast.Mult, ast.FloorDiv, ast.LShift, ast.RShift)


def _geometric(loop: ast.While) -> bool:
    """The body scales a size the test compares by a constant factor (``p *= 2`` under ``while p < n``, or
    ``half = x.shape[0] // 2`` under ``while x.shape[0] > 1``): the loop runs about log2 of its bound times,
    which unrolls to a few copies of the body whatever the size. A Python ``while`` under jit can only test
    static values (a traced test cannot be a Python bool), so its bound is a shape or a constant. Scaling an
    array's values (``x = x * 2``) leaves its size, and so the trip count, as it was."""
    parents = {id(child): node for node in ast.walk(loop.test) for child in ast.iter_child_nodes(node)}
    counters = {
        n.id for n in ast.walk(loop.test)
        if isinstance(n, ast.Name) and not isinstance(parents.get(id(n)), (ast.Attribute, ast.Subscript))
    }  # `p` in `p < n`, not `x` in `x.shape[0] > 1`
    sized = {n.id for n in ast.walk(loop.test) if isinstance(n, ast.Name)}
    for node in (n for statement in loop.body for n in ast.walk(statement)):
        if isinstance(node, ast.AugAssign) and isinstance(node.op, _SCALINGS):
            if isinstance(node.target, ast.Name) and node.target.id in counters and _factor(node.op, node.value):
                return True
        elif isinstance(node, ast.BinOp) and isinstance(node.op, _SCALINGS):
            if _factor(node.op, node.right):
                scaled = node.left
            elif isinstance(node.op, ast.Mult) and _factor(node.op, node.left):
                scaled = node.right
            else:
                continue
            if _size_of(scaled, counters, sized):
                return True
    return False


def _size_of(expr: ast.AST, counters: set[str], sized: set[str]) -> bool:
    """``expr`` is a size the loop test compares: one of its counters (``p``), or the shape, size or length of
    a name it tests (``x.shape[0]``, ``len(xs)``)."""
    if isinstance(expr, ast.Name):
        return expr.id in counters
    for node in ast.walk(expr):
        if isinstance(node, ast.Attribute) and node.attr in ("shape", "size") and isinstance(node.value, ast.Name):
            if node.value.id in sized:
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and node.args:
            if isinstance(node.args[0], ast.Name) and node.args[0].id in sized:
                return True
    return False


def _factor(op: ast.operator, value: ast.AST) -> bool:
    """``value`` is a whole-number constant that changes the size geometrically under ``op``: at least 2 for a
    product or a quotient, at least 1 for a shift."""
    if not (isinstance(value, ast.Constant) and type(value.value) is int):
        return False
    return value.value >= (1 if isinstance(op, (ast.LShift, ast.RShift)) else 2)


def _unpacks_records(loop: ast.For | ast.AsyncFor) -> bool:
    """The loop takes each element apart into named fields (``for W, b in θ``): the elements are records, a
    list of a layer's (weights, bias) pairs, not the rows of one array, which the function would index or
    slice rather than unpack."""
    target = loop.target
    return isinstance(target, ast.Tuple) and len(target.elts) > 1 and all(isinstance(e, ast.Name) for e in target.elts)


def int_value(ctx: Context, expr: ast.AST) -> int | None:
    """The value of a whole-number expression made of literals and names bound once, at module level, to one."""
    if isinstance(expr, ast.Constant):
        return expr.value if type(expr.value) is int else None
    if isinstance(expr, ast.Name):
        constants: dict[str, int] = ctx.index("module integers", lambda: _module_integers(ctx))
        return constants.get(expr.id)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        value = int_value(ctx, expr.operand)
        return None if value is None else -value
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult)):
        left, right = int_value(ctx, expr.left), int_value(ctx, expr.right)
        if left is None or right is None:
            return None
        return left + right if isinstance(expr.op, ast.Add) else left - right if isinstance(expr.op, ast.Sub) else left * right
    return None


def _module_integers(ctx: Context) -> dict[str, int]:
    """Names bound exactly once in the program, at module level, to a whole-number literal."""
    found: dict[str, int] = {}
    for stmt in ctx.program.module.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            value = stmt.value
            if isinstance(value, ast.Constant) and type(value.value) is int:
                found[stmt.targets[0].id] = value.value
    stores = Counter(n.id for n in ctx.program.of_type(ast.Name) if isinstance(n.ctx, ast.Store) and n.id in found)
    return {name: value for name, value in found.items() if stores[name] == 1}


def _data_size(ctx: Context, data: _DataView, bound: ast.AST) -> bool:
    """``x.shape[0]``, ``len(x)`` of an array: a count that grows with the data, whatever the callers pass."""
    for node in ast.walk(bound):
        if isinstance(node, ast.Attribute) and node.attr in ("shape", "size"):
            return True
        if isinstance(node, ast.Call) and ctx.names.qualname(node.func) == "builtins.len" and node.args:
            argument = node.args[0]
            if ctx.kinds.of(argument) == "jax" or (isinstance(argument, ast.Name) and data.is_array_argument(argument.id)):
                return True
    return False


def _structural_bound(ctx: Context, bound: ast.AST) -> bool:
    """``x.ndim``, ``len(x.shape)``, ``len(layers)``: a range over dimensions or structure, not data; or the number
    of devices or processes (`_counts_devices`)."""
    if _counts_devices(ctx, bound, 0):
        return True
    for node in ast.walk(bound):
        if isinstance(node, ast.Attribute) and node.attr == "ndim":
            return True
        if isinstance(node, ast.Call) and ctx.names.qualname(node.func) == "builtins.len" and node.args:
            argument = node.args[0]
            if isinstance(argument, ast.Attribute) and argument.attr == "shape":
                return True
            if STRUCTURAL.search(short(argument, 40)):
                return True
    return False


def _counts_devices(ctx: Context, expr: ast.AST, depth: int) -> bool:
    """``expr`` counts the devices or processes the program runs on: ``jax.device_count()``, ``comm.Get_size()``, a
    name every binding of which is such a count (``mpi_size = comm.Get_size()``), or one divided by, offset by or
    bounded by constants or other counts (``mpi_size // nproc_y``, ``min(n_devices, 4)``; a product may be any
    size). A loop over it under jit unrolls one step per shard or rank: the machine's fixed structure, not the data's
    size (mpi4jax's ``reassemble_array``, ``for i in range(mpi_size)``, case 514)."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in COUNT_METHODS:
            return True
        qualified = ctx.names.qualname(expr.func)
        if qualified in DEVICE_COUNTS:
            return True
        if qualified in ("builtins.min", "builtins.max") and expr.args and not expr.keywords:
            return _counts_devices_or_constants(ctx, expr.args, depth)
        return False
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.FloorDiv)):
        return _counts_devices_or_constants(ctx, [expr.left, expr.right], depth)  # not `n_devices * 1024`
    if isinstance(expr, ast.Name):
        values = ctx.facts.bindings.values_at(expr.id, expr)
        return bool(values) and all(_counts_devices(ctx, v, depth + 1) for v in values)
    return False


def _counts_devices_or_constants(ctx: Context, parts: list[ast.expr], depth: int) -> bool:
    """Every part is a device count or a whole-number constant, and one at least is a count."""
    counts = [_counts_devices(ctx, p, depth + 1) for p in parts]
    return any(counts) and all(c or int_value(ctx, p) is not None for c, p in zip(counts, parts))


def _data_sized_test(ctx: Context, data: _DataView, test: ast.AST) -> bool:
    """A ``while`` condition that counts up to a data size or a large constant (``i < n``, ``i < x.shape[0]``);
    ``while node is not None`` walks a structure, ``while w.ndim < x.ndim`` dimensions. In a library function a
    bound the callers pass (``i < n``) is theirs to keep small. Under a jit applied to the function itself, a
    non-static argument is a tracer: ``while count < n`` cannot be a Python bool, so tracing raises before any
    step is unrolled (the page's ``jit(multiply_n_times)(2, 5)`` in a ``try``, case 383); the fault is the error,
    not a loop's compile time."""
    for node in ast.walk(test):
        if not isinstance(node, ast.Compare) or not all(isinstance(op, _ORDERINGS) for op in node.ops):
            continue
        sides = [node.left, *node.comparators]
        if any(isinstance(p, ast.Attribute) and p.attr == "ndim" for side in sides for p in ast.walk(side)):
            continue
        for side in sides:
            if isinstance(side, ast.Constant) and isinstance(side.value, int) and side.value > _SMALL_RANGE:
                return True
            for part in ast.walk(side):
                if isinstance(part, ast.Attribute) and part.attr == "shape":
                    return True
                if isinstance(part, ast.Name) and part.id in data.parameters and not data.library \
                        and not data.site.direct:
                    return True
    return False


_ORDERINGS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


_ARRAY_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "at", "T", "reshape", "astype", "sum", "mean", "dot"})


def _array_parameters(ctx: Context, function: ast.AST, parameters: set[str]) -> set[str]:
    """The parameters ``function`` uses as arrays (``x.shape``, ``jnp.sin(x)``, ``x * 2``) or that its
    callers give arrays."""
    found: set[str] = set()
    for node in local_walk(ctx.program, function):
        if isinstance(node, ast.Attribute) and node.attr in _ARRAY_ATTRIBUTES and isinstance(node.value, ast.Name):
            found.add(node.value.id)
        elif isinstance(node, ast.Call) and (ctx.names.qualname(node.func) or "").startswith(JAX_OPS):
            found.update(a.id for a in node.args if isinstance(a, ast.Name))
        elif isinstance(node, ast.BinOp):
            found.update(side.id for side in (node.left, node.right) if isinstance(side, ast.Name))
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    for site in ctx.facts.call_sites(function):
        call = ctx.program.parent(site)
        if isinstance(call, ast.Call) and call.func is site:
            for name, argument in zip(positional, call.args):
                if ctx.kinds.of(argument) in ("jax", "numpy") and not _a_short_numpy_display(ctx, argument):
                    found.add(name)
    return found & parameters


def _a_short_numpy_display(ctx: Context, argument: ast.expr) -> bool:
    """``argument`` is a NumPy array the code writes out with a few elements (``np.array([0, N - 1])``), or a name
    every binding of which is one, followed through a local function that returns it in a tuple (interpax's
    ``Z, J = _smoothing_null_space(...)``, whose ``J`` is ``np.array([0])`` or ``np.array([0, N - 1])``): a loop over
    it under jit unrolls a handful of steps, as a loop over a short literal range does."""
    values = _values_of(ctx, argument, 0)
    return bool(values) and all(
        isinstance(v, ast.Call) and ctx.names.qualname(v.func) in ("numpy.array", "numpy.asarray") and len(v.args) == 1
        and isinstance(v.args[0], (ast.List, ast.Tuple)) and len(v.args[0].elts) <= _SMALL_RANGE
        and not any(isinstance(e, ast.Starred) for e in v.args[0].elts)
        for v in values
    )


def _values_of(ctx: Context, expr: ast.expr, depth: int) -> list[ast.expr | None]:
    """What ``expr`` may hold: itself, or for a name every value bound to it in its scope, a tuple unpacked from a call
    of a local function read as that function's returned element (None where that is not known)."""
    if not isinstance(expr, ast.Name):
        return [expr]
    if depth > 2:
        return [None]
    scope = enclosing_function(ctx.program, expr)
    found: list[ast.expr | None] = []
    for assign in ctx.program.of_type(ast.Assign):
        if enclosing_function(ctx.program, assign) is not scope:
            continue
        for target in assign.targets:  # type: ignore[attr-defined]
            if isinstance(target, ast.Name) and target.id == expr.id:
                found.extend(_values_of(ctx, assign.value, depth + 1))  # type: ignore[attr-defined]
            elif isinstance(target, ast.Tuple) and any(isinstance(e, ast.Name) and e.id == expr.id for e in target.elts):
                k = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == expr.id)
                found.extend(_returned_element(ctx, assign.value, k, len(target.elts), depth))  # type: ignore[attr-defined]
    return found or [None]


def _returned_element(ctx: Context, value: ast.expr, k: int, size: int, depth: int) -> list[ast.expr | None]:
    """Element ``k`` of what a call of a local function returns, from each of its ``return`` tuples of ``size``."""
    function = ctx.facts.local_def(value) if isinstance(value, ast.Call) else None
    if function is None:
        return [None]
    returns = [n.value for n in local_walk(ctx.program, function) if isinstance(n, ast.Return)]
    if not returns or not all(isinstance(r, ast.Tuple) and len(r.elts) == size for r in returns):
        return [None]
    return [v for r in returns for v in _values_of(ctx, r.elts[k], depth + 1)]  # type: ignore[union-attr]


def _given_to_numpy(ctx: Context, function: ast.AST) -> set[str]:
    """Parameters handed to NumPy (``onp.zeros(tuple(size))``): concrete Python values at trace time, since
    NumPy cannot take a traced array."""
    names: set[str] = set()
    for node in local_walk(ctx.program, function):
        if isinstance(node, ast.Call) and (ctx.names.qualname(node.func) or "").startswith("numpy."):
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                names.update(n.id for n in ast.walk(argument) if isinstance(n, ast.Name))
    return names


def _static_parameters(ctx: Context, function: ast.AST, site: JitSite) -> set[str]:
    """The parameters a direct jit marks static (``static_argnums`` / ``static_argnames``): Python values."""
    if not site.direct or not isinstance(site.node, ast.Call):
        return set()
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    static: set[str] = set()
    for keyword in site.node.keywords:
        values = keyword.value.elts if isinstance(keyword.value, (ast.Tuple, ast.List)) else [keyword.value]
        constants = [v.value for v in values if isinstance(v, ast.Constant)]
        if keyword.arg == "static_argnums":
            static.update(positional[i] for i in constants if isinstance(i, int) and -len(positional) <= i < len(positional))
        elif keyword.arg == "static_argnames":
            static.update(c for c in constants if isinstance(c, str))
    return static


def _fake_for(iterable: ast.expr) -> ast.For:
    return ast.For(target=ast.Name(id="_", ctx=ast.Store()), iter=iterable, body=[], orelse=[])


def _parameters(function: ast.AST) -> set[str]:
    """Named parameters; ``*args`` is left out: looping over the arguments walks a fixed-size tuple."""
    args = getattr(function, "args", None)
    if args is None:
        return set()
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
