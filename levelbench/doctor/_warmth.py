"""Whether an earlier call warms a later one: the same callable value, called with a signature jit cannot tell apart.

A jitted function compiles once per callable object and per argument signature (the structure of the pytree, each
leaf's shape and dtype, the value of each static argument). So an earlier call is a warm-up of a later one only when

- the callee is the same value: ``f_jit = jit(f)`` between them binds a new jitted function, however it is
  spelled (the binding in effect at each call, not the name, decides);
- the arguments cannot be told apart: a Python list at one call and an array at the other, ``[1, 2]`` and
  ``[1, 2, 3]``, ``3`` and ``3.0``, another value of a static argument, another number of arguments or
  another keyword, or arrays whose literal shapes differ each compile again.

Unknown counts as the same: the rules that report an unwarmed call (LB103) and the words that say there was no
warm-up (LB104) stay quiet where the doctor cannot tell.

- nothing between them drops the compiled code: ``f_jit._clear_cache()`` (a jitted function's own cache) or
  ``jax.clear_caches()`` (every cache) in the later call's function, after the earlier call, leaves the later one
  to compile again, as QuantEcon's calibration script does on purpose before its 'cold' timing (case 346).

    y = f_jit([1, 2, 3])          # warms nothing below: a list is a pytree of three scalars
    f_jit = jax.jit(f)            # a new jitted function: the calls above do not warm the calls below
    t0 = time.perf_counter(); f_jit(jnp.ones(3)); ...
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass

from ._facts import Facts
from ._kinds import Kinds
from ._names import dotted
from ._program import Program
from ._syntax import COMPREHENSIONS, FUNCTIONS, LOOPS, SCOPES, enclosing_function, position, unparse

_SHAPED = frozenset({"ones", "zeros", "empty", "full"})  # array constructors whose first argument is the shape
# jax.random's samplers take the key first and the shape second, or as `shape=` (`random.normal(key, (n, m))`,
# `random.normal(key=key, shape=[1000, 10000])`); the sampled array has that shape.
_SAMPLERS = frozenset({"normal", "uniform", "bernoulli", "randint", "truncated_normal", "gamma", "beta", "exponential",
                       "laplace", "logistic", "cauchy"})
_RANGES = frozenset({"linspace", "arange", "logspace", "geomspace"})  # one-dimensional, whatever their arguments
# one array per argument, each with as many dimensions as there are arguments (inputs are flattened)
_GRIDS = frozenset({"jax.numpy.meshgrid", "numpy.meshgrid"})
_UNKNOWN = None
# Builtins whose value is a Python scalar: jit keys a traced scalar on its type, never its value.
_PYTHON_SCALARS = {"builtins.len": "int", "builtins.int": "int", "builtins.float": "float", "builtins.bool": "bool"}
# JAX's array constructors that keep a Python scalar's weak type when no dtype is given.
_WEAK_WRAPPERS = frozenset({"jax.numpy.array", "jax.numpy.asarray"})
# Calls that drop compiled code: every cache (JAX's own), or one jitted function's (its `_clear_cache` method).
_CLEARS_EVERY_CACHE = frozenset({"jax.clear_caches"})
_CLEARS_ITS_CACHE = "_clear_cache"


@dataclass(frozen=True)
class _Binding:
    statement: ast.AST  # the statement that binds the name
    value: ast.expr | None  # the value bound, where one expression gives it
    effect: tuple[int, int]  # where the binding takes effect (after its value is computed)


@dataclass(frozen=True)
class _Form:
    """What jit keys a compilation on, as far as the source says: a category and, if known, its detail."""

    category: str  # "list", "tuple", "array", "tensor", "int", "float", "bool", "str", "None", ...
    detail: object = None  # a literal's length, an array's literal shape, a constant's value
    rank: int | None = None  # an array's number of dimensions, where the source shows it

    def differs(self, other: _Form, *, by_value: bool) -> bool:
        if self.category != other.category:
            return True
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            return True
        if self.category in ("int", "float", "bool", "str", "complex") and not by_value:
            return False  # a non-static scalar is traced: its value does not matter
        return self.detail is not None and other.detail is not None and self.detail != other.detail


def _shape_argument(qualified: str, call: ast.Call) -> ast.expr | None:
    """The argument that gives the shape of the array ``call`` makes: a constructor's first (``jnp.ones((3, 4))``) or
    its ``shape=``, a ``jax.random`` sampler's second (after the key) or its ``shape=``; None for anything else."""
    module, _, function = qualified.rpartition(".")
    keyword = next((k.value for k in call.keywords if k.arg == "shape"), None)
    if function in _SHAPED:
        return call.args[0] if call.args else keyword
    if module == "jax.random" and function in _SAMPLERS:
        return call.args[1] if len(call.args) > 1 else keyword
    return None


def _unwaited(value: ast.expr | None) -> ast.expr | None:
    """``dot_jit(W, X)`` for ``dot_jit(W, X).block_until_ready()``: the computation a wait is called on."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr == "block_until_ready":
        value = value.func.value
    return value


class Warmth:
    """Answers `warms` for one program; the bindings of every name are indexed once."""

    def __init__(self, program: Program, facts: Facts, kinds: Kinds) -> None:
        self.program, self.facts, self.kinds = program, facts, kinds
        self.bindings: dict[tuple[ast.AST | None, str], list[_Binding]] = {}
        self._blocks: dict[int, list[ast.AST] | None] = {}  # id(statement) -> the list that holds it (`_block`)
        # (name, use) -> `_in_effect`: a call is asked about as the later call of one pair and the earlier of the next
        self._held: dict[tuple[str, ast.AST], _Binding | None] = {}
        self._clears: list[ast.Call] | None = None  # `cache_clears`, found when first asked
        for node in program.of_type(ast.Name, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.alias):
            self._record(node)
        for found in self.bindings.values():
            found.sort(key=lambda b: b.effect)

    def warms(self, earlier: ast.Call, later: ast.Call) -> bool:
        """Running ``earlier`` compiles what ``later`` runs, unless the source shows otherwise."""
        if self.last_clear(later, position(later), enclosing_function(self.program, later), position(earlier)):
            return False  # `solve_j._clear_cache()` or `jax.clear_caches()` between them: the later call compiles again
        if any(isinstance(f, ast.Lambda) for f in self.facts.compiled_arguments(later)):
            # eager lax control flow given a lambda written in the call: a new function object every time the
            # statement runs, and JAX caches the compiled loop per function object, so nothing before warms it
            return False
        if unparse(earlier.func) == unparse(later.func) and self._cut_down(earlier, later):
            return False  # the warm-up runs on pieces of the timed inputs: the timed call is the first at its shape
        if self.facts.jitted_key(later) is None or unparse(earlier.func) != unparse(later.func):
            # not jitted (eager operations are cached per operation, whatever the callee), or another spelling
            # (an alias, a wrapper): whether it is the same compiled function is not known here. But eager
            # operations are cached per shape too: the same callee given arrays whose shapes the source spells out
            # differently compiles its operations again (QuantEcon's `f(x)` on 50,000,000 ones, then `f(y)` on
            # 50,000,001, timed twice 'to eliminate compile time', case 322)
            # And an argument bound again between the calls to a value of another form (`indices = jnp.array(indices)`
            # after the list was passed, case 082) is new input to the same operations: they run for it cold.
            return not (unparse(earlier.func) == unparse(later.func) and (
                self._array_shapes_differ(earlier, later) or self._rebound_to_another_form(earlier, later)))
        if isinstance(later.func, ast.Name) and self._rebound(later.func.id, earlier, later, 0):
            return False  # the name was bound again between the calls, to another callable
        return not self._signatures_differ(earlier, later)

    def last_clear(
        self, call: ast.Call, before: tuple[int, int], scope: ast.AST | None, after: tuple[int, int] | None = None
    ) -> ast.Call | None:
        """The last call in ``scope`` (None: module level) before ``before`` (and after ``after``) that drops the
        compiled code ``call`` runs: ``f._clear_cache()`` of the callee as written or of the jitted value it calls
        (an alias, a container, a wrapper of it), or ``jax.clear_caches()``. None when there is none."""
        if self._clears is None:
            self._clears = sorted((
                c for c in self.program.of_type(ast.Call)
                if (isinstance(c.func, ast.Attribute) and c.func.attr == _CLEARS_ITS_CACHE and not c.args)
                or self.facts.names.qualname(c.func) in _CLEARS_EVERY_CACHE
            ), key=position)
        if not self._clears:
            return None
        for clear in reversed(self._clears[:bisect.bisect_left(self._clears, before, key=position)]):
            if after is not None and position(clear) <= after:
                return None
            if enclosing_function(self.program, clear) is not scope:
                continue
            if not isinstance(clear.func, ast.Attribute) or clear.func.attr != _CLEARS_ITS_CACHE:
                return clear
            if self.runs_the_same(call, clear.func.value) or self._runs_inside(call, clear.func.value):
                return clear
        return None

    def _runs_inside(self, call: ast.Call, value: ast.expr) -> bool:
        """``call`` runs a jitted wrapper of the jitted function ``value`` (``solve_batched = jax.vmap(solve_j)``,
        ``solve = jax.jit(solve_j) if use_jit else solve_j``): a program of its own (`Facts` keeps its key apart),
        but one built from ``value``'s code, so a ``value._clear_cache()`` right before it says the code means to time
        that code cold, as the clear before ``solve_j()`` itself does (case 346, its ``vmap`` and ``cond-jit``
        variants)."""
        if self.facts.jitted_key(call) is None or self.facts.jitted_key_of(value) is None:
            return False
        inner = self.facts.function_of(call.func)
        return inner is not None and inner is self.facts.function_of(value)

    def runs_the_same(self, call: ast.Call, value: ast.expr) -> bool:
        """``call`` runs the function value ``value``: the callee written the same way, or the same jitted callable
        reached through another name (``solve_alias = solve``, ``fns["solve"]``, ``functools.partial(solve)``)."""
        if unparse(call.func) == unparse(value):
            return True
        key = self.facts.jitted_key(call)
        return key is not None and key == self.facts.jitted_key_of(value)

    def _rebound(self, name: str, earlier: ast.AST, later: ast.AST, depth: int) -> bool:
        """``name`` holds another value at ``later`` than at ``earlier``, as far as the source shows. The same
        jit of the same function written again (``f_jit = jax.jit(f)`` twice) is no other value: JAX keeps its
        traces and executables per wrapped function, so the second wrapper's first call compiles nothing (0.10.2
        on CPU: 204 ms for the first wrapper's first call, 2.6 ms for the second's). A lambda in it is new."""
        first, second = self._in_effect(name, earlier), self._in_effect(name, later)
        if first is _UNKNOWN or second is _UNKNOWN or first is second:
            return False
        if first.value is None or second.value is None or depth > 4:
            return True  # a def, an import, a loop variable: a new object
        if ast.dump(first.value) != ast.dump(second.value) or any(isinstance(n, ast.Lambda) for n in ast.walk(first.value)):
            return True
        names = {n.id for n in ast.walk(first.value) if isinstance(n, ast.Name)}
        return any(self._rebound(n, first.statement, second.statement, depth + 1) for n in names)

    def _signatures_differ(self, earlier: ast.Call, later: ast.Call) -> bool:
        calls = (earlier, later)
        if not any(isinstance(a, ast.Starred) for c in calls for a in c.args):
            if len(earlier.args) != len(later.args):
                return True
        if not any(k.arg is None for c in calls for k in c.keywords):
            if {k.arg for k in earlier.keywords} != {k.arg for k in later.keywords}:
                return True
        key = self.facts.jitted_key(later)
        static_positions, static_names = static_arguments(self.facts, key, later) if key else (set(), set())
        pairs = [(i, a, b) for i, (a, b) in enumerate(zip(earlier.args, later.args))]
        if any(isinstance(a, ast.Starred) or isinstance(b, ast.Starred) for _, a, b in pairs):
            return False
        keywords = {k.arg: k.value for k in earlier.keywords if k.arg is not None}
        named = [(k.arg, keywords[k.arg], k.value) for k in later.keywords if k.arg in keywords]
        return any(
            self._arguments_differ(a, b, by_value=i in static_positions) for i, a, b in pairs
        ) or any(self._arguments_differ(a, b, by_value=n in static_names) for n, a, b in named)

    def _computed_from_other_shapes(self, first: ast.expr | None, second: ast.expr | None, depth: int) -> bool:
        """The two values are the same computation written the same way (``Z = dot_jit(W, X).block_until_ready()``
        twice), given arrays whose shapes the source shows differ (``W`` drawn with ``shape=[1000, 10000]``, then
        ``[2000, 10000]``), directly or through such values: what it returns has another shape, so a jitted function
        handed it compiles again (Aakash Nain's JIT notebook, case 383)."""
        first, second = _unwaited(first), _unwaited(second)
        if depth > 3 or not (isinstance(first, ast.Call) and isinstance(second, ast.Call)) \
                or unparse(first.func) != unparse(second.func) or len(first.args) != len(second.args):
            return False
        return self._array_shapes_differ(first, second) or any(
            self._arguments_differ(x, y, by_value=False, depth=depth + 1) for x, y in zip(first.args, second.args))

    def _cut_down(self, earlier: ast.Call, later: ast.Call) -> bool:
        """The earlier call is handed pieces of what the later one is handed: ``f(x[:1])`` then ``f(x)``, or each input
        cut down (``fn(*tuple(process_item(item) for item in inputs))``, ``process_item`` returning
        ``jnp.array([item[0]])``, then ``fn(*inputs)``, climate_code_conversion's ``measure_time``, case 517). JAX
        compiles per input shape, so the warm-up compiles for the pieces' shapes and the later call compiles again."""
        if len(earlier.args) != len(later.args) or earlier.keywords or later.keywords:
            return False
        for a, b in zip(earlier.args, later.args):
            if isinstance(a, ast.Starred) != isinstance(b, ast.Starred):
                return False
            a, b = (a.value, b.value) if isinstance(a, ast.Starred) else (a, b)  # type: ignore[union-attr]
            if isinstance(b, ast.Name) and self._pieces_of(a, b.id):
                return True
        return False

    def _pieces_of(self, value: ast.expr, name: str) -> bool:
        """``value`` is an index or slice of ``name`` (``x[:1]``), or a sequence made element by element from ``name``
        whose each element is one (``tuple(g(item) for item in name)`` with a local ``g`` returning ``item[0]`` in an
        array, as ``jnp.array([item[0]])``)."""
        if isinstance(value, ast.Subscript):
            return isinstance(value.value, ast.Name) and value.value.id == name
        if isinstance(value, ast.Call) and self.facts.names.qualname(value.func) in ("builtins.tuple", "builtins.list") \
                and len(value.args) == 1:
            value = value.args[0]
        if not (isinstance(value, (ast.GeneratorExp, ast.ListComp)) and len(value.generators) == 1):
            return False
        loop = value.generators[0]
        if not (isinstance(loop.iter, ast.Name) and loop.iter.id == name and isinstance(loop.target, ast.Name)):
            return False
        element, variable = value.elt, loop.target.id
        if isinstance(element, ast.Call) and len(element.args) == 1 and isinstance(element.args[0], ast.Name) \
                and element.args[0].id == variable:
            function = self.facts.local_def(element)
            parameters = [p.arg for p in getattr(getattr(function, "args", None), "args", [])]
            if function is None or not parameters:
                return False
            returned = [r.value for r in ast.walk(function) if isinstance(r, ast.Return) and r.value is not None]
            return any(_indexes(r, parameters[0]) for r in returned)
        return _indexes(element, variable)

    def _array_shapes_differ(self, earlier: ast.Call, later: ast.Call) -> bool:
        """Some positional argument is an array at both calls, with shapes or ranks the source spells out, and they
        differ (``f(x[i], y[j])`` on elements of 1-d arrays, then ``f(x_mesh, y_mesh)`` from ``jnp.meshgrid``)."""
        for a, b in zip(earlier.args, later.args):
            first, second = self._form(a, 0), self._form(b, 0)
            if (first is not None and second is not None and first.category == second.category == "array"
                    and first.differs(second, by_value=False)):
                return True
        return False

    def _rebound_to_another_form(self, earlier: ast.Call, later: ast.Call) -> bool:
        """An argument both calls pass by the same name holds another binding at ``later``, and the source shows the
        two values are of different forms (a list, then an array; arrays of other shapes). A name bound again to a
        value of the same form (``x = x + 1``), or of a form the source does not show, is not one."""
        keywords = {k.arg: k.value for k in earlier.keywords if k.arg is not None}
        pairs = [*zip(earlier.args, later.args), *((keywords[k.arg], k.value) for k in later.keywords if k.arg in keywords)]
        # a library's function, not the file's or JAX's: it may compile per object it is handed (`_built_again`)
        named = self.facts.names.qualname(later.func) or (dotted(later.func) or "")
        library = (self.facts.local_def(later) is None and isinstance(later.func, ast.Attribute)
                   and not named.startswith(("jax.", "jaxlib.", "numpy.", "torch.")))
        for a, b in pairs:
            if not (isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id):
                continue
            first, second = self._in_effect(a.id, a), self._in_effect(b.id, b)
            if first is _UNKNOWN or second is _UNKNOWN or first is second:
                continue
            first_form, second_form = self._form(a, 0), self._form(b, 0)
            if first_form is not None and second_form is not None and first_form.differs(second_form, by_value=False):
                return True
            if library and self._built_again(a, first, second):
                return True
        if not library:
            return False
        for a, b in zip(earlier.keywords, later.keywords):
            if a.arg is None and b.arg is None and isinstance(a.value, ast.Name) and isinstance(b.value, ast.Name) \
                    and a.value.id == b.value.id and self._built_again(a.value, *(
                        self._in_effect(n.id, n) for n in (a.value, b.value))):
                return True  # `**kwargs` bound again to other settings (nutpie's backends, case 472)
        return False

    def _built_again(self, name: ast.Name, first: object, second: object) -> bool:
        """``name``, handed to a library's function by attribute (not the file's, not JAX's, NumPy's or PyTorch's), is
        bound at the two calls to two values each made by a call (``model = make_model(frame)``, ``kwargs =
        dict(backend="numba")``) that are no array the source shows: new objects, whose program a library that
        compiles per object (PyMC's and nutpie's model compiles, case 472) has not compiled. An array bound again is
        new input to the same eager operations, which their cache covers; a local function handed a new tuple of
        settings runs the jitted functions it calls on them (QuantEcon's ``policy_iteration(model)``, case 141)."""
        if first is _UNKNOWN or second is _UNKNOWN or first is second:
            return False
        values = [getattr(b, "value", None) for b in (first, second)]
        return all(isinstance(v, ast.Call) for v in values) and all(self.kinds.of(v) is None for v in values) \
            and self.kinds.of(name) is None

    def _arguments_differ(self, a: ast.expr, b: ast.expr, *, by_value: bool, depth: int = 0) -> bool:
        if isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id:
            first, second = self._in_effect(a.id, a), self._in_effect(b.id, b)
            if first is _UNKNOWN or first is second:
                return False
            if second is not _UNKNOWN and self._computed_from_other_shapes(first.value, second.value, depth):
                return True
        first_form, second_form = self._form(a, 0), self._form(b, 0)
        return first_form is not None and second_form is not None and first_form.differs(second_form, by_value=by_value)

    def _form(self, expr: ast.expr | None, depth: int) -> _Form | None:
        """The form of ``expr``'s value, following names to the binding in effect; None: unknown."""
        if expr is None or depth > 6:
            return None
        if isinstance(expr, ast.Name):
            binding = self._in_effect(expr.id, expr)
            if binding is not _UNKNOWN and binding.value is None:
                rank = self._rank(expr, depth + 1)  # `x_mesh, y_mesh = jnp.meshgrid(x, y)`: the one reading of a rank
                return _Form("array", None, rank) if rank is not None else None
            return self._form(binding.value, depth + 1) if binding is not _UNKNOWN else None
        if isinstance(expr, ast.Constant):
            return _Form(type(expr.value).__name__, repr(expr.value))
        if isinstance(expr, (ast.List, ast.Tuple)):
            has_starred = any(isinstance(e, ast.Starred) for e in expr.elts)
            return _Form(type(expr).__name__.lower(), None if has_starred else len(expr.elts))
        if isinstance(expr, ast.ListComp):
            return _Form("list")
        qualified = self.facts.names.qualname(expr.func) if isinstance(expr, ast.Call) else None
        if qualified in ("builtins.list", "builtins.tuple"):
            return _Form(qualified.split(".")[1])  # type: ignore[union-attr]
        if qualified in _PYTHON_SCALARS:
            return _Form(_PYTHON_SCALARS[qualified])  # `len(times)`: a Python int, whatever its value
        if qualified in _WEAK_WRAPPERS and len(expr.args) == 1 and not expr.keywords:  # type: ignore[union-attr]
            # `jnp.array(0)` of a Python scalar, no dtype: the same weakly typed abstract value (int32[], weak) as
            # the scalar passed bare, so `f(0)` warms `f(jnp.array(n))` (jax_log_compiles: one compile for both);
            # `jnp.int32(0)` or a dtype makes it strongly typed, another signature
            inner = self._form(expr.args[0], depth + 1)  # type: ignore[union-attr]
            if inner is not None and inner.category in ("int", "float", "bool", "complex"):
                return _Form(inner.category)
        kind = self.kinds.of(expr)
        if kind in ("jax", "numpy"):
            shape = self._shape(expr) if isinstance(expr, ast.Call) else None
            return _Form("array", shape, len(shape) if shape is not None else self._rank(expr, depth + 1))
        return _Form("tensor") if kind == "torch" else None

    def _shape(self, call: ast.Call) -> tuple[object, ...] | None:
        """``(3, 4)`` for ``jnp.ones((3, 4))``; ``(50000001,)`` for ``jnp.ones(m)`` after ``m = 50_000_001``: a shape
        the source spells out, its parts literal integers or names bound to one where the call reads them."""
        qualified = self.facts.names.qualname(call.func)
        if qualified is None:
            return None
        shape = _shape_argument(qualified, call)
        if shape is None:
            return None
        parts = shape.elts if isinstance(shape, (ast.Tuple, ast.List)) else [shape]
        values: list[object] = []
        for part in parts:
            if isinstance(part, ast.Name):
                binding = self._in_effect(part.id, part)
                part = binding.value if binding is not _UNKNOWN and binding.value is not None else part
            if not (isinstance(part, ast.Constant) and isinstance(part.value, int)):
                return None
            values.append(part.value)
        return tuple(values)

    def _rank(self, expr: ast.expr, depth: int) -> int | None:
        """The number of dimensions of the array ``expr`` gives, where the source shows it: 1 for ``jnp.linspace``
        or ``jnp.arange``, ``len(shape)`` for ``jnp.ones(shape)``, one less for ``x[i]`` with ``i`` an integer (a
        literal, or the variable of a loop over ``range``), and the number of arrays for each of
        ``jnp.meshgrid(x, y)``'s results; None: unknown."""
        if depth > 6:
            return None
        if isinstance(expr, ast.Name):
            binding = self._in_effect(expr.id, expr)
            if binding is _UNKNOWN:
                return None
            if binding.value is not None:
                return self._rank(binding.value, depth + 1)
            return self._unpacked_rank(expr.id, binding)
        if isinstance(expr, ast.Subscript):
            grid = self._grid_rank(expr.value)  # `jnp.meshgrid(x, y)[0]`
            if grid is not None:
                return grid if self._integer_index(expr.slice) else None
            if not self._integer_index(expr.slice):
                return None
            outer = self._rank(expr.value, depth + 1)
            return outer - 1 if outer is not None and outer >= 1 else None
        if isinstance(expr, ast.Call):
            qualified = self.facts.names.qualname(expr.func) or ""
            module, _, function = qualified.rpartition(".")
            if module in ("jax.numpy", "numpy") and function in _RANGES:
                return 1
            shape = self._shape(expr)
            return len(shape) if shape is not None else None
        return None

    def _unpacked_rank(self, name: str, binding: _Binding) -> int | None:
        """The rank of ``name`` unpacked from ``jnp.meshgrid(...)``'s results (``x_mesh, y_mesh = jnp.meshgrid(x, y)``)."""
        statement = binding.statement
        if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], (ast.Tuple, ast.List))
                and any(isinstance(e, ast.Name) and e.id == name for e in statement.targets[0].elts)):
            return self._grid_rank(statement.value)
        return None

    def _grid_rank(self, value: ast.expr) -> int | None:
        """The rank of each array ``jnp.meshgrid(x, y, ...)`` returns: the number of arrays given."""
        if not isinstance(value, ast.Call) or self.facts.names.qualname(value.func) not in _GRIDS:
            return None
        if value.keywords and any(k.arg is None for k in value.keywords):
            return None
        if any(isinstance(a, ast.Starred) for a in value.args) or not value.args:
            return None
        return len(value.args)

    def _integer_index(self, index: ast.expr) -> bool:
        """``index`` is one integer: a literal, or the variable of a ``for`` loop over ``range(...)``."""
        if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
            index = index.operand
        if isinstance(index, ast.Constant):
            return isinstance(index.value, int) and not isinstance(index.value, bool)
        if not isinstance(index, ast.Name):
            return False
        binding = self._in_effect(index.id, index)
        statement = binding.statement if binding is not _UNKNOWN else None
        return (isinstance(statement, (ast.For, ast.AsyncFor)) and isinstance(statement.target, ast.Name)
                and statement.target.id == index.id and isinstance(statement.iter, ast.Call)
                and self.facts.names.qualname(statement.iter.func) == "builtins.range")

    def _in_effect(self, name: str, use: ast.AST) -> _Binding | None:
        """The binding of ``name`` that holds at ``use``, in ``use``'s own function; None where it is not known:
        a name of another scope, a binding only some paths run, or one a loop brings round from below."""
        key = (name, use)
        if key not in self._held:
            self._held[key] = self._find_in_effect(name, use)
        return self._held[key]

    def _find_in_effect(self, name: str, use: ast.AST) -> _Binding | None:
        scope = enclosing_function(self.program, use)
        found = self.bindings.get((scope, name))
        if not found:
            return self._from_outside(name, scope)
        at = position(use)
        ancestors = [use, *self.program.ancestors(use)]
        split = bisect.bisect_left(found, at, key=lambda b: b.effect)
        loops = {id(a) for a in ancestors[1:] if isinstance(a, LOOPS)}
        # the last binding before the use holds if it runs on every path to the use; else which holds is not known
        last = found[split - 1] if split else None
        if last is None or not self._dominates(last, ancestors):
            return _UNKNOWN
        carried = set().union(*(self._loops_around(b, loops) for b in found[split:])) if loops else set()
        if carried - self._loops_around(last, loops):
            return _UNKNOWN  # bound again further down a loop around the use: the next iteration sees that value
        return last  # bound again further down, but the pass binds it anew before the use (`Z = ...` then `Z, A = ...`)

    def _from_outside(self, name: str, scope: ast.AST | None) -> _Binding | None:
        """A name a function reads from the scopes around it: its binding there, when that scope binds it once
        (with several, which one holds when the function runs depends on when it is called)."""
        while scope is not None:
            scope = enclosing_function(self.program, scope)
            found = self.bindings.get((scope, name))
            if found:
                return found[0] if len(found) == 1 else _UNKNOWN
        return _UNKNOWN

    def _dominates(self, binding: _Binding, ancestors: list[ast.AST]) -> bool:
        """The binding's statement sits in a block that also holds the use (``ancestors``: the use and the nodes
        around it): it runs on every path to the use."""
        block = self._block(binding.statement)
        return block is not None and any(self._block(a) is block for a in ancestors)

    def _loops_around(self, binding: _Binding, loops: set[int]) -> set[int]:
        """Which of ``loops`` (the loops around a use) hold the binding, in the same function."""
        found: set[int] = set()
        for ancestor in self.program.ancestors(binding.statement):
            if isinstance(ancestor, FUNCTIONS):
                break
            if id(ancestor) in loops:
                found.add(id(ancestor))
        return found

    def _block(self, statement: ast.AST) -> list[ast.AST] | None:
        """The statement list (a body, an ``else``, a ``finally``, the handlers) that holds ``statement``; None for a
        node no such list holds. Every list of a parent is indexed at its first question (one pass per parent: a
        module of many statements asked about each of them stays linear)."""
        if id(statement) not in self._blocks:
            parent = self.program.parent(statement)
            for field in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(parent, field, None)
                if isinstance(block, list):
                    for s in block:
                        self._blocks.setdefault(id(s), block)
            self._blocks.setdefault(id(statement), None)
        return self._blocks[id(statement)]

    def _record(self, node: ast.AST) -> None:
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Store):
                return
            statement, value = self._bound_by(node)
            if statement is None:
                return
            name = node.id
        elif isinstance(node, ast.alias):
            statement, value = self.program.parent(node), None
            name = (node.asname or node.name).split(".", 1)[0]
        else:
            statement, value, name = node, None, node.name  # type: ignore[attr-defined]
        if statement is None:
            return
        # a compound statement (`for x in ...:`, `with ... as x:`) binds before its body runs; others after
        compound = isinstance(statement, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith))
        effect = _end(node if compound else statement)
        # a class body's names are the class's attributes, no variable of the function or module around it
        scope = next((a for a in self.program.ancestors(statement) if isinstance(a, SCOPES)), None)
        self.bindings.setdefault((scope, name), []).append(_Binding(statement, value, effect))

    def _bound_by(self, target: ast.Name) -> tuple[ast.AST | None, ast.expr | None]:
        """The statement that binds ``target`` and, for a plain ``name = value`` (or a tuple of them), the value."""
        child: ast.AST = target
        for ancestor in self.program.ancestors(target):
            if isinstance(ancestor, (ast.comprehension, *COMPREHENSIONS)):
                return None, None  # a comprehension's own variable
            if isinstance(ancestor, ast.NamedExpr):
                return self._statement_of(ancestor), ancestor.value
            if isinstance(ancestor, ast.stmt):
                return ancestor, _paired_value(ancestor, target, child)
            child = ancestor
        return None, None

    def _statement_of(self, node: ast.AST) -> ast.AST | None:
        return next((a for a in self.program.ancestors(node) if isinstance(a, ast.stmt)), None)


def static_arguments(facts: Facts, key: str, call: ast.Call) -> tuple[set[int], set[str]]:
    """Positions and names the jitted callable ``key`` (called by ``call``) marks static (``static_argnums`` /
    ``static_argnames``), as its jit call spells them."""
    site = facts.jitted.get(key)
    node = site.node if site is not None else call.func
    if not isinstance(node, ast.Call):
        return set(), set()
    positions: set[int] = set()
    names: set[str] = set()
    for keyword in node.keywords:
        values = keyword.value.elts if isinstance(keyword.value, (ast.Tuple, ast.List)) else [keyword.value]
        constants = [v.value for v in values if isinstance(v, ast.Constant)]
        if keyword.arg == "static_argnums":
            positions.update(c for c in constants if isinstance(c, int))
        elif keyword.arg == "static_argnames":
            names.update(c for c in constants if isinstance(c, str))
    return positions, names


def _paired_value(statement: ast.stmt, target: ast.Name, child: ast.AST) -> ast.expr | None:
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        if child is target:
            return statement.value
        if isinstance(child, (ast.Tuple, ast.List)) and isinstance(statement.value, (ast.Tuple, ast.List)):
            pairs = dict(zip(map(id, child.elts), statement.value.elts)) if len(child.elts) == len(statement.value.elts) else {}
            return pairs.get(id(target))
    return None


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _indexes(value: ast.AST, name: str) -> bool:
    """``value`` holds an index or slice of ``name`` (``item[0]`` in ``jnp.array([item[0]])``)."""
    return any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name
               for n in ast.walk(value))
