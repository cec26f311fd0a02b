"""Evidence that an array argument takes a new shape on each iteration of a loop, and where it comes from.

jit compiles once per input shape, so a loop that hands a jitted function arrays of changing sizes
compiles every iteration. The evidence is read from the code: a slice whose length the loop changes
(``x[:i]``, not the window ``x[i:i + b]``), an array the loop sizes (``np.zeros(n)``, ``x[labels == k]``,
``x[np.where(d > i)[0]]``), or one element after another of a list whose arrays were built with
different sizes (``[x[:n] for n in sizes]``, ``np.split(x, [3, 7])``, ``parts.append(x[x[:, 0] == k])``).
A list of batches with no such evidence is taken to hold one shape. Where a list comes from is followed
through assignments, tuple unpacking, the return values of local functions and, for a parameter, the
arguments at the function's call sites.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator

from ._context import Context
from ._names import dotted
from ._syntax import FUNCTIONS, LOOPS, enclosing_function, enclosing_loop, local_walk, position, short

_DEPTH = 8  # assignments, returns and call sites followed to find where a list comes from
# Array modules written by their conventional names when an import is ambiguous (`np` bound to both).
_CONVENTIONAL_ARRAYS = {"np": "numpy", "onp": "numpy", "numpy": "numpy", "jnp": "jax.numpy"}
# Where a function's size is: positional indices (None: every positional) and keywords.
_Sizes = tuple[tuple[int, ...] | None, tuple[str, ...]]
_CONSTRUCTOR_SIZES: dict[str, _Sizes] = {
    "zeros": ((0,), ("shape",)), "ones": ((0,), ("shape",)), "empty": ((0,), ("shape",)),
    "full": ((0,), ("shape",)), "eye": ((0, 1), ("N", "M")), "identity": ((0,), ("n",)),
    "linspace": ((2,), ("num",)), "tri": ((0, 1), ("N", "M")),
}
_NUMPY_RANDOM_SIZES: dict[str, _Sizes] = {
    "rand": (None, ()), "randn": (None, ()), "random": ((0,), ("size",)), "standard_normal": ((0,), ("size",)),
    "randint": ((2,), ("size",)), "integers": ((2,), ("size",)), "normal": ((2,), ("size",)),
    "uniform": ((2,), ("size",)), "binomial": ((2,), ("size",)), "poisson": ((1,), ("size",)),
    "choice": ((1,), ("size",)), "permutation": ((0,), ()),
}
_JAX_RANDOM_SIZES: dict[str, _Sizes] = {
    "normal": ((1,), ("shape",)), "uniform": ((1,), ("shape",)), "randint": ((1,), ("shape",)),
    "bernoulli": ((2,), ("shape",)), "choice": ((2,), ("shape",)), "permutation": ((1,), ()),
}
# Calls that return their argument's shape: `jnp.asarray(x)` is as ragged as `x`.
_SAME_SHAPE = frozenset({"asarray", "array", "device_put", "astype", "copy"})
# Boolean masks and the gathers built from them keep a data-dependent number of elements.
_MASKS = frozenset({"logical_and", "logical_or", "logical_not", "logical_xor", "isin", "isnan", "isfinite", "isinf"})
_GATHERS = frozenset({"where", "nonzero", "flatnonzero", "argwhere"})
# Shape reads: a size computed from them is the same for every batch of one shape.
_SHAPE_READS = frozenset({"shape", "size", "ndim"})
# Libraries a `module.f(...)` call never means a function of this file.
_LIBRARIES = frozenset({"jax", "numpy", "torch", "flax", "equinox", "optax", "orbax", "scipy", "builtins", "levelbench"})


def loop_variables(loop: ast.AST) -> set[str]:
    """Names the loop changes each iteration: its targets, and names assigned with ``+=`` in the body."""
    names: set[str] = set()
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        names |= {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    for node in ast.walk(loop):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def changing_names(loop: ast.AST, nodes: list[ast.AST]) -> set[str]:
    """The loop's variables and the names its body computes from them (``n = sizes[i]``, ``mask = y == k``).
    A name computed from a shape (``n = batch.shape[0]``) is not one: batches of one shape give one ``n``."""
    return derived_names(loop_variables(loop), nodes)


def derived_names(names: set[str], nodes: list[ast.AST]) -> set[str]:
    """``names`` and the names the assignments among ``nodes`` compute from them, transitively (``x =
    (jnp.zeros(size), ...)`` from ``size``); not through a shape read, as `changing_names`."""
    names = set(names)
    assignments = [n for n in nodes if isinstance(n, ast.Assign)]
    changed = True
    while changed:
        changed = False
        for assignment in assignments:
            if mentions(assignment.value, names):
                for target in assignment.targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and name.id not in names:
                            names.add(name.id)
                            changed = True
    return names


def mentions(expr: ast.AST, names: set[str]) -> bool:
    """``expr`` reads one of ``names`` other than through its shape (``x.shape``, ``len(x)``)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            if node.id in names:
                return True
        elif isinstance(node, ast.Attribute) and node.attr in _SHAPE_READS:
            continue
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def index_parts(subscript: ast.Subscript) -> list[ast.expr]:
    return list(subscript.slice.elts) if isinstance(subscript.slice, ast.Tuple) else [subscript.slice]


def length_varies(part: ast.expr, varying: set[str]) -> bool:
    """A slice whose length the loop changes: ``x[:i]``, ``x[i:]``, ``x[i:2 * i]``; not ``x[i:i + b]`` or
    ``x[i * b:(i + 1) * b]``, windows of one width."""
    if not isinstance(part, ast.Slice):
        return False
    lower, upper = part.lower, part.upper
    if lower is None or upper is None:
        bound = upper if lower is None else lower
        return bound is not None and mentions(bound, varying)
    if not (mentions(lower, varying) or mentions(upper, varying)):
        return False
    return _width_varies(lower, upper, varying)


def _width_varies(lower: ast.expr, upper: ast.expr, varying: set[str]) -> bool:
    """``upper - lower``, multiplied out, still reads one of ``varying``."""
    width = _subtract(_linear(upper), _linear(lower))
    return any(mentions(ast.parse(term, mode="eval"), varying) for monomial in width for term in monomial)


_Polynomial = dict[tuple[str, ...], int]


def _linear(expr: ast.expr) -> _Polynomial:
    """``(i + 1) * b`` as ``{("b", "i"): 1, ("b",): 1}``: sums and products of integers and terms; a term
    is any other expression, named by its source."""
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return {(): expr.value} if expr.value else {}
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return {m: -c for m, c in _linear(expr.operand).items()}
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult)):
        left, right = _linear(expr.left), _linear(expr.right)
        if isinstance(expr.op, ast.Add):
            return _subtract(left, {m: -c for m, c in right.items()})
        if isinstance(expr.op, ast.Sub):
            return _subtract(left, right)
        product: _Polynomial = {}
        for ml, cl in left.items():
            for mr, cr in right.items():
                monomial = tuple(sorted(ml + mr))
                product[monomial] = product.get(monomial, 0) + cl * cr
        return {m: c for m, c in product.items() if c}
    return {(ast.unparse(expr),): 1}


def _subtract(left: _Polynomial, right: _Polynomial) -> _Polynomial:
    out = dict(left)
    for monomial, coefficient in right.items():
        out[monomial] = out.get(monomial, 0) - coefficient
    return {m: c for m, c in out.items() if c}


@dataclasses.dataclass(frozen=True)
class _Binding:
    name: str
    at: tuple[int, int]
    value: ast.expr
    index: int | None  # the position in a tuple assignment: `a, b = value`


class ShapeEvidence:
    """Evidence that an argument takes a new shape each iteration, with where the shapes come from."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._bindings: dict[tuple[int, str], list[_Binding]] | None = None
        self._module_calls: dict[str, list[ast.Call]] | None = None
        self._local_names: dict[ast.AST, set[str]] = {}

    def new_each_iteration(self, argument: ast.expr, loop: ast.AST, varying: set[str]) -> tuple[str, str] | None:
        """(why, evidence) when ``argument`` has a size the loop sets, or is one element after another of a
        list whose arrays have different sizes; else None."""
        sized = self._sized_by(argument, varying, loop, 0)
        if sized is not None:
            return "an array whose size changes every iteration", sized
        sequence = self._element_of(argument, loop, varying, 0)
        if sequence is None:
            return None
        ragged = self._ragged(sequence, None, 0)
        if ragged is None:
            return None
        built, reason = ragged
        return (
            f"one element after another of `{short(sequence, 30)}`, whose arrays differ in size",
            f"`{short(sequence, 30)}` comes from `{short(built, 60)}` ({self.ctx.where(built)}): {reason}",
        )

    # --- an array the loop sizes -------------------------------------------------------------------
    def _sized_by(self, expr: ast.expr, varying: set[str], within: ast.AST, depth: int) -> str | None:
        """Why ``expr`` has a size set by ``varying``, the names that change in the loop or comprehension
        ``within`` (a slice, a mask, a constructor's size), or None."""
        expr = self._unwrap(expr)
        if depth > _DEPTH:
            return None
        if isinstance(expr, ast.Subscript):
            for part in index_parts(expr):
                if length_varies(part, varying):
                    return f"the slice `{short(expr, 40)}` changes length with the loop"
                if self._selects(part, 0) and mentions(part, varying):
                    return f"`{short(expr, 40)}` keeps as many elements as a mask that changes with the loop selects"
            return None
        if isinstance(expr, ast.Call):
            by = sorted({n for size in self._size_arguments(expr) for n in varying if mentions(size, {n})})
            return f"`{short(expr, 40)}` takes its size from `{'`, `'.join(by)}`" if by else None
        if isinstance(expr, (ast.Tuple, ast.List)):  # a pytree argument: a new shape when one of its leaves has one
            return next((w for e in expr.elts if (w := self._sized_by(e, varying, within, depth + 1)) is not None), None)
        if isinstance(expr, ast.Name) and expr.id in varying:
            for binding in self._bound(expr):
                if binding.index is None and any(a is within for a in self.ctx.program.ancestors(binding.value)):
                    return self._sized_by(binding.value, varying, within, depth + 1)
        return None

    def _size_arguments(self, call: ast.Call) -> list[ast.expr]:
        name = self._array_function(call.func)
        if name is None or any(isinstance(a, ast.Starred) for a in call.args):
            return []
        module, _, last = name.rpartition(".")
        if last == "arange" and module in ("numpy", "jax.numpy"):
            return list(call.args[:1]) if len(call.args) < 2 else self._arange_width(call)
        table = {"numpy": _CONSTRUCTOR_SIZES, "jax.numpy": _CONSTRUCTOR_SIZES, "numpy.random": _NUMPY_RANDOM_SIZES,
                 "generator": _NUMPY_RANDOM_SIZES, "jax.random": _JAX_RANDOM_SIZES}.get(module, {})
        spec = table.get(last)
        if spec is None:
            return []
        positions, keywords = spec
        args = list(call.args) if positions is None else [call.args[i] for i in positions if i < len(call.args)]
        return [*args, *(k.value for k in call.keywords if k.arg in keywords)]

    @staticmethod
    def _arange_width(call: ast.Call) -> list[ast.expr]:
        """The terms of ``stop - start``: ``arange(i, i + 10)`` has ten elements whatever ``i`` is."""
        width = _subtract(_linear(call.args[1]), _linear(call.args[0]))
        return [ast.parse(term, mode="eval").body for monomial in width for term in monomial]

    def _array_function(self, func: ast.expr) -> str | None:
        """``"numpy.zeros"``, ``"jax.random.normal"``, ``"generator.integers"`` (a NumPy Generator's method)."""
        qualified = self.ctx.names.qualname(func)
        if qualified is not None:
            return qualified.removeprefix("jax._src.")
        name = dotted(func)
        if name is None or "." not in name:
            return None
        root, rest = name.split(".", 1)
        base = func
        while isinstance(base, ast.Attribute):
            base = base.value
        if self.ctx.facts.numpy_generator(base):
            return f"generator.{rest}"
        if root in _CONVENTIONAL_ARRAYS:  # an ambiguous import: NumPy and jax.numpy size alike
            return f"{_CONVENTIONAL_ARRAYS[root]}.{rest}"
        return None

    def _selects(self, part: ast.expr, depth: int) -> bool:
        """``part`` is a boolean mask or a gather built from one (``y == k``, ``np.where(c)[0]``)."""
        if depth > _DEPTH:
            return False
        if isinstance(part, ast.Compare):
            return not any(isinstance(op, (ast.In, ast.NotIn, ast.Is, ast.IsNot)) for op in part.ops)
        if isinstance(part, ast.BinOp) and isinstance(part.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self._selects(part.left, depth + 1) or self._selects(part.right, depth + 1)
        if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Invert):
            return self._selects(part.operand, depth + 1)
        if isinstance(part, ast.Subscript) and isinstance(part.slice, ast.Constant):  # np.where(c)[0]
            part = part.value
        if isinstance(part, ast.Call):
            last = (self._array_function(part.func) or "").rpartition(".")[2]
            return last in _MASKS or (last in _GATHERS and len(part.args) == 1)
        if isinstance(part, ast.Name):
            return any(b.index is None and self._selects(b.value, depth + 1) for b in self._bound(part))
        return False

    # --- one element after another of a ragged list ----------------------------------------------------
    def _element_of(self, expr: ast.expr, loop: ast.AST, varying: set[str], depth: int) -> ast.expr | None:
        """The sequence whose elements ``expr`` takes in turn: ``xs`` for ``xs[j]``, for ``x`` in ``for x in xs``
        (or ``enumerate(xs)``, ``zip(xs, ys)``), and for a name the loop body binds to one of those."""
        expr = self._unwrap(expr)
        if depth > 2:
            return None
        if isinstance(expr, ast.Subscript):
            parts = index_parts(expr)
            if len(parts) == 1 and not isinstance(parts[0], ast.Slice) and mentions(parts[0], varying):
                return expr.value
            return None
        if not isinstance(expr, ast.Name):
            return None
        for outer in [loop, *self.ctx.program.ancestors(loop)]:
            if isinstance(outer, FUNCTIONS):
                break
            if isinstance(outer, (ast.For, ast.AsyncFor)) and (found := _iterated(outer, expr.id)) is not None:
                return found
        for binding in self._bound(expr):
            node = binding.value
            if binding.index is None and any(a is loop for a in self.ctx.program.ancestors(node)):
                return self._element_of(node, loop, varying, depth + 1)
        return None

    def _ragged(self, expr: ast.expr, index: int | None, depth: int) -> tuple[ast.expr, str] | None:
        """(where it is built, why) when ``expr`` (its ``index``-th item, for a tuple) is a list of arrays of
        different sizes."""
        if depth > _DEPTH:
            return None
        if index is not None:
            if isinstance(expr, (ast.Tuple, ast.List)) and index < len(expr.elts):
                if not any(isinstance(e, ast.Starred) for e in expr.elts):
                    return self._ragged(expr.elts[index], None, depth + 1)
            elif isinstance(expr, ast.Call):
                return self._first(self._ragged(r, index, depth + 1) for r in self._returns(expr))
            return None
        if isinstance(expr, ast.Name):
            for binding in self._bound(expr):
                if binding.index is None and _empty_list(binding.value):
                    found = self._appended(expr.id, binding.value)
                else:
                    found = self._ragged(binding.value, binding.index, depth + 1)
                if found is not None:
                    return found
            return None
        if isinstance(expr, (ast.ListComp, ast.GeneratorExp)):
            targets = {n.id for g in expr.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
            reason = self._sized_by(expr.elt, targets, expr, 0)
            return None if reason is None else (expr, reason)
        if isinstance(expr, ast.Call):
            if isinstance(expr.func, ast.Name) and expr.func.id in ("list", "tuple") and len(expr.args) == 1:
                return self._ragged(expr.args[0], None, depth + 1)
            if self._splits_unevenly(expr):
                return expr, "it splits an array at given indices, into pieces of different lengths"
            return self._first(self._ragged(r, None, depth + 1) for r in self._returns(expr))
        return None

    def _appended(self, name: str, start: ast.expr) -> tuple[ast.expr, str] | None:
        """``xs = []`` filled in a loop with arrays the loop sizes: ``xs.append(x[y == k])``."""
        program = self.ctx.program
        scope = enclosing_function(program, start)
        for call in program.of_type(ast.Call):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "append" and isinstance(func.value, ast.Name)
                    and func.value.id == name and len(call.args) == 1):
                continue
            loop = enclosing_loop(program, call)
            if not isinstance(loop, LOOPS) or enclosing_function(program, call) is not scope:
                continue
            reason = self._sized_by(call.args[0], changing_names(loop, list(local_walk(program, loop))), loop, 0)
            if reason is not None:
                return call, reason
        return None

    def _splits_unevenly(self, call: ast.Call) -> bool:
        """``np.split(x, [3, 7])``, ``np.split(x, np.cumsum(lengths))``: split at indices, not into equal parts."""
        name = self._array_function(call.func) or ""
        if name not in ("numpy.split", "jax.numpy.split") or len(call.args) < 2:
            return False
        at = call.args[1]
        if isinstance(at, (ast.List, ast.Tuple)):
            return bool(at.elts)
        last = (self._array_function(at.func) or "").rpartition(".")[2] if isinstance(at, ast.Call) else ""
        return last in ("cumsum", *_GATHERS)

    # --- where a name comes from -------------------------------------------------------------------
    def _bound(self, name: ast.Name) -> list[_Binding]:
        """What ``name`` holds where it is read: the nearest assignment before it in its scope; for a
        parameter, the arguments at the function's call sites; for a global read in a function, every
        module-level assignment."""
        program = self.ctx.program
        scope = enclosing_function(program, name)
        bindings = self._index().get((id(scope), name.id), [])
        if bindings:
            before = [b for b in bindings if b.at < position(name)]
            return before[-1:]
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = self._arguments(scope, name.id)
            if arguments is not None:
                return [_Binding(name.id, position(a), a, None) for a in arguments]
        if scope is not None and name.id not in self._locals(scope):
            return self._index().get((id(None), name.id), [])
        return []

    def _locals(self, function: ast.AST) -> set[str]:
        """Names a function binds other than by assignment (loop targets, ``with ... as``, imports)."""
        if function not in self._local_names:
            self._local_names[function] = {
                n.id for n in local_walk(self.ctx.program, function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
        return self._local_names[function]

    def _index(self) -> dict[tuple[int, str], list[_Binding]]:
        if self._bindings is None:
            program = self.ctx.program
            self._bindings = {}
            for node in program.of_type(ast.Assign, ast.AnnAssign):
                value = node.value
                if value is None:
                    continue
                scope = id(enclosing_function(program, node))
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        found = [(target.id, None)]
                    elif isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
                        found = [(e.id, i) for i, e in enumerate(target.elts)]
                    else:
                        continue
                    for name, index in found:
                        self._bindings.setdefault((scope, name), []).append(_Binding(name, position(node), value, index))
        return self._bindings

    def _arguments(self, function: ast.FunctionDef | ast.AsyncFunctionDef, parameter: str) -> list[ast.expr] | None:
        """The values passed for ``parameter`` at every call of ``function``; None when it is no parameter."""
        positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
        if parameter not in positional and parameter not in {a.arg for a in function.args.kwonlyargs}:
            return None
        if isinstance(self.ctx.program.parent(function), ast.ClassDef):
            return []  # a method: who calls it, and with what, is not visible here
        calls = [
            parent for site in self.ctx.facts.call_sites(function)
            if isinstance(parent := self.ctx.program.parent(site), ast.Call) and parent.func is site
        ]
        if not calls and enclosing_function(self.ctx.program, function) is None:
            calls = self._calls_through_module(function.name)
        index = positional.index(parameter) if parameter in positional else None
        values: list[ast.expr] = []
        for call in calls:
            if index is not None and index < len(call.args):
                if not any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
                    values.append(call.args[index])
            values.extend(k.value for k in call.keywords if k.arg == parameter)
        return values

    def _calls_through_module(self, name: str) -> list[ast.Call]:
        """``helpers.f(...)`` for a module-level ``f`` of this file that it never calls by name: a notebook
        read together with the module it imports its functions from."""
        if self._module_calls is None:
            self._module_calls = {}
            for call in self.ctx.program.of_type(ast.Call):
                func = call.func
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    module = self.ctx.names.qualname(func.value)
                    if module is not None and module.split(".")[0] not in _LIBRARIES:
                        self._module_calls.setdefault(func.attr, []).append(call)
        return self._module_calls.get(name, [])

    def _returns(self, call: ast.Call) -> list[ast.expr]:
        """What a call of a local function (by name, or through its module) returns."""
        function = self.ctx.facts.local_def(call)
        if function is None and isinstance(call.func, ast.Attribute) and call in self._calls_through_module(call.func.attr):
            candidate = self.ctx.facts.defs.get(call.func.attr)
            if candidate is not None and enclosing_function(self.ctx.program, candidate) is None:
                function = candidate
        if function is None:
            return []
        return [n.value for n in local_walk(self.ctx.program, function) if isinstance(n, ast.Return) and n.value]

    def _unwrap(self, expr: ast.expr) -> ast.expr:
        """``jnp.asarray(x)``, ``x.astype(f)``: the array whose shape they keep."""
        while isinstance(expr, ast.Call):
            func = expr.func
            if isinstance(func, ast.Attribute) and func.attr in ("astype", "copy") and self._array_function(func) is None:
                expr = func.value
            elif (self._array_function(func) or "").rpartition(".")[2] in _SAME_SHAPE and expr.args:
                expr = expr.args[0]
            else:
                break
        return expr

    @staticmethod
    def _first(found: Iterator[tuple[ast.expr, str] | None]) -> tuple[ast.expr, str] | None:
        return next((f for f in found if f is not None), None)


def _iterated(loop: ast.For | ast.AsyncFor, name: str) -> ast.expr | None:
    """The sequence a loop hands ``name`` the elements of: ``xs`` in ``for x in xs``, ``for i, x in
    enumerate(xs)``, ``for x, y in zip(xs, ys)``."""
    target, iterable = loop.target, loop.iter
    if isinstance(target, ast.Name):
        return iterable if target.id == name and not isinstance(iterable, ast.Call) else None
    if not isinstance(target, ast.Tuple) or not isinstance(iterable, ast.Call) or not isinstance(iterable.func, ast.Name):
        return None
    slots = [e.id if isinstance(e, ast.Name) else None for e in target.elts]
    if name not in slots:
        return None
    position_ = slots.index(name)
    if iterable.func.id == "enumerate" and len(slots) == 2 and position_ == 1 and iterable.args:
        return iterable.args[0]
    if iterable.func.id == "zip" and len(iterable.args) == len(slots):
        return iterable.args[position_]
    return None


def _empty_list(expr: ast.expr) -> bool:
    return (isinstance(expr, ast.List) and not expr.elts) or (
        isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "list" and not expr.args
    )
