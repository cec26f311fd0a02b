"""Which framework a value belongs to: ``"jax"``, ``"torch"``, ``"numpy"`` or unknown (None).

Inferred from where values come from (``jnp.*`` calls, jitted functions, models, ``torch.*``,
``np.*``), carried through names, attributes, indexing, arithmetic and method calls. Unknown is
the safe answer: rules only fire on values whose framework is known.

A plain name is a variable of the scope that assigns it, as Python scopes it: a module-level ``to`` that
holds Python integers is another variable than a function's ``to = FROM_PLANE[i]`` (pgx's chess tables
were read as JAX operations). A name a function only reads (a parameter, a global) is looked up in the
scopes around it; an attribute (``self.params``) is one value across the file.
"""

from __future__ import annotations

import ast

from ._facts import JIT_TRANSFORMS, Facts
from ._names import JAX_LIBRARIES, NOT_PROJECT_MODULES, UNJITTED_LIBRARIES, UNJITTED_UPDATES, dotted, names_a_class
from ._syntax import FUNCTIONS, argument, bound_names, enclosing_function, local_walk

# Calls into jax.* that return arrays (jax.jit, jax.grad, jax.config, ... return other things).
_JAX_ARRAY_MODULES = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.image.", "jax.ops.")
_JAX_ARRAY_FUNCS = frozenset({"jax.device_put", "jax.block_until_ready", "jax.pure_callback"})
_NOT_ARRAYS = frozenset(
    {"dtype", "shape", "ndim", "size", "result_type", "issubdtype", "finfo", "iinfo", "promote_types", "can_cast",
     "default_rng", "RandomState", "Generator", "seed", "get_state", "set_state"}
)
_TORCH_NOT_TENSORS = (
    "torch.nn.", "torch.cuda.", "torch.backends.", "torch.utils.", "torch.jit.", "torch.device", "torch.no_grad",
    "torch.inference_mode", "torch.set_", "torch.get_", "torch.manual_seed", "torch.compile",
    "torch.autograd.grad_mode",
    "torch.is_", "torch.dtype", "torch.Generator", "torch.profiler.",
)
_ATTRIBUTES_NOT_ARRAYS = frozenset(
    {"shape", "dtype", "ndim", "size", "device", "devices", "sharding", "itemsize", "nbytes"}
)
HOST_METHODS = frozenset({"item", "tolist", "__float__", "__int__", "__array__"})
# Transforms whose result, called, traces the function with JAX and returns JAX arrays, whatever the function is.
# The jits are `_facts.JIT_TRANSFORMS`, the one list of them.
FUNCTION_TRANSFORMS = JIT_TRANSFORMS | frozenset(
    {
        "jax.vmap", "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.hessian", "jax.checkpoint",
        "jax.remat", "equinox.filter_vmap", "equinox.filter_grad", "equinox.filter_value_and_grad", "flax.nnx.vmap",
        "flax.nnx.grad", "flax.nnx.value_and_grad",
    }
)
# Array constructors that turn a Python list into one array (`jnp.array(rows)` after a loop of `rows.append(...)`).
ASSEMBLERS = frozenset({"array", "asarray", "stack", "vstack", "hstack", "concatenate"})
# JAX functions that give back a Python list with one array per argument or per leaf: its length is structure.
_SEQUENCE_RESULTS = frozenset(
    {"jax.numpy.broadcast_arrays", "jax.numpy.meshgrid", "jax.numpy.ix_", "jax.tree.leaves", "jax.tree_util.tree_leaves"}
)
# Library functions outside NumPy that return NumPy arrays: scikit-learn's generated data sets and its split of
# arrays (`X, y = make_regression(...)`, `data = train_test_split(X, y)`), host data handed to JAX (cases 289-291).
_NUMPY_RESULTS = ("sklearn.datasets.make_", "sklearn.model_selection.train_test_split")
# Modules of a JAX library that hold its test helpers, not its computations: they compute references on the host
# (`jaxopt._src.test_util.lasso_skl` runs scikit-learn; JAX's own `test_util.rand_default` builds NumPy arrays).
_TEST_HELPERS = frozenset({"test_util", "test_utils", "testing"})
# Packages whose values the model knows, or that hold no computation of their own: not an unknown object's maker.
_KNOWN_ROOTS = ("jax.", "numpy.", "torch.", "builtins.", "flax.", "equinox.", "optax.", "haiku.", "scipy.", "pandas.")


def call_kind(qualified: str) -> str | None:
    """The framework of the value returned by the library function ``qualified`` (e.g. ``"jax.numpy.dot"``)."""
    last = qualified.rsplit(".", 1)[-1]
    if last in _NOT_ARRAYS:
        return None
    if qualified == "jax.random.PRNGKey":
        return "jax"  # a function that returns a key array, though capitalised like a class
    if qualified.startswith(_JAX_ARRAY_MODULES) or qualified in _JAX_ARRAY_FUNCS:
        return None if last[:1].isupper() else "jax"  # `lax.ConvDimensionNumbers(...)`: a class, not an array
    if qualified == "jax.device_get":
        return "numpy"
    if qualified.startswith(JAX_LIBRARIES):
        if _TEST_HELPERS.intersection(qualified.split(".")[1:-1]):
            return "numpy"  # a library's test helpers compute references on the host (jaxopt's scikit-learn `lasso_skl`)
        return None if last[:1].isupper() else "jax"
    if qualified.startswith("numpy.") or qualified.startswith(_NUMPY_RESULTS):
        return "numpy"
    if qualified.startswith("torch.") and not qualified.startswith(_TORCH_NOT_TENSORS):
        return "torch"
    if (last.endswith("_jax") or last.startswith("jax_")) and qualified.split(".", 1)[0] not in NOT_PROJECT_MODULES:
        # a project library's function whose name says it is the JAX version (s2fft's `compute_full_jax` beside its
        # NumPy `compute_full`, case 515): libraries that keep both name the JAX one so
        return "jax"
    return None



_COMPREHENSION_EXPRS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _within(node: ast.AST, root: ast.AST) -> bool:
    """``node`` is ``root`` or inside it."""
    return any(n is node for n in ast.walk(root))


class Kinds:
    """Framework inference over one program."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.names = facts.names
        # A name's key: (the scope whose variable it is, the name); `_ATTRIBUTE` for a dotted name.
        self._named: dict[_Key, str] = {}
        # Names bound to values of different frameworks (x = np.ones(); ...; x = jnp.asarray(x)):
        # (position, scope, kind or None) of each binding, in program order.
        self._rebound: dict[_Key, list[tuple[tuple[int, int], ast.AST | None, str | None]]] = {}
        self._returns: dict[ast.AST, str | None] = {}
        self._elements_seen: dict[int, str | None] | None = None  # `elements`' answers within one question
        self._reads: set[_Key] | None = None  # while inferring names: the names a binding's value looked up
        self._assigned: dict[ast.AST | None, set[str]] = {}  # the plain names each scope assigns
        self._comprehension_names: set[str] = set()  # the names some comprehension's `for` binds, in its own scope
        self._global: dict[ast.AST, set[str]] = {}  # the names a function declares `global`
        self._class_bodies: dict[ast.AST, ast.ClassDef | None] = {}
        self._local_names: set[str] = set()  # the names some function or class body assigns
        self._class_names: set[str] = set()  # the names some class body assigns
        self._method_calls: dict[str, list[ast.Call]] | None = None  # `_object_calls`
        self._maker_index: dict[str, set[str]] | None = None  # `_makers`
        self._result_index: dict[str, set[str]] | None = None  # `_results_of`
        self._states: dict[str, frozenset[str]] = {}  # `_object_state`
        self._fed: dict[str, tuple[bool, frozenset[_Key]]] = {}  # `_fed_jax`, emptied when the names' kinds change
        self._infer_names()

    def of(self, expr: ast.AST | None, depth: int = 0) -> str | None:
        """``"jax"``, ``"torch"``, ``"numpy"`` or None for the value of ``expr``."""
        if expr is None or depth > 12:
            return None
        depth += 1
        if isinstance(expr, (ast.Name, ast.Attribute)):
            name = dotted(expr)
            key = self._key(name, expr) if name is not None else None
            if self._reads is not None and key is not None:
                self._reads.add(key)
            if key is not None and key in self._named:
                return self._named[key]
            if key is not None and key in self._rebound:
                return self._at(key, expr)
            if self.names.qualname(expr) is not None:  # a library object (a module, a function, a constant)
                return None
            if isinstance(expr, ast.Attribute):
                return None if expr.attr in _ATTRIBUTES_NOT_ARRAYS else self.of(expr.value, depth)
            return self._given_numpy(expr, depth)
        if isinstance(expr, ast.Call):
            return self._call(expr, depth)
        if isinstance(expr, ast.Subscript):
            return self.of(expr.value, depth)
        if isinstance(expr, ast.BinOp):
            return _join(self.of(expr.left, depth), self.of(expr.right, depth))
        if isinstance(expr, ast.UnaryOp):
            return self.of(expr.operand, depth)
        if isinstance(expr, ast.IfExp):
            return _join(self.of(expr.body, depth), self.of(expr.orelse, depth))
        return None

    def _given_numpy(self, name: ast.Name, depth: int) -> str | None:
        """``"numpy"`` for a parameter the function never rebinds that every call the file shows passes a NumPy
        array (gradi-mojo's ``benchmark_gradient_descent_JAX(X.copy(), D, ...)`` with ``X = np.random.rand(N, dim)``,
        case 334), when the function's name is only ever called: handed on, it may have callers the file does not
        show. Only NumPy: an array the host holds is one whatever the caller, and its copy to a device is what
        the rules that read it are about."""
        values = self.facts.parameter_values(name)
        if not values:
            return None
        function = enclosing_function(self.facts.program, name)
        while isinstance(function, ast.Lambda):  # `timeit(lambda: f(X, D), number=10)` in `def bench(X, D)`
            function = enclosing_function(self.facts.program, function)
        sites = self.facts.call_sites(function) if function is not None else []
        program = self.facts.program
        if not sites or any(not (isinstance(c := program.parent(s), ast.Call) and c.func is s) for s in sites):
            return None
        return "numpy" if all(self.of(v, depth) == "numpy" for v in values) else None

    def _call(self, call: ast.Call, depth: int) -> str | None:
        facts = self.facts
        qualified = self.names.qualname(call.func)
        if qualified == "builtins.next" and call.args:
            return self.elements(call.args[0], depth)
        if qualified is not None and facts.profiled_imports and qualified in facts.profiled_imports:
            return "jax"  # `state = j_integrate_many(...)`, a function the file runs under JAX's profiler (case 405)
        if qualified is not None:
            return call_kind(qualified)
        if facts.calls_jax_callable(call) or facts.is_flax_call(call):
            return "jax"
        if facts.is_torch_model_call(call):
            return "torch"
        function = facts.local_def(call)
        if function is not None:
            return self.returned(function, depth)
        if isinstance(call.func, ast.Name) and (library := facts.library_call(call)) is not None \
                and library.gives_values:
            return "jax"  # `_ = rollout_fn(keys, params)` of `rollout_fn = manager.batch_rollout` (gymnax, case 388)
        if isinstance(call.func, ast.Call) and self._transformed(call.func):
            return "jax"  # `jax.vmap(f)(xs)` of a function the file cannot see: the transform traces it with JAX
        if isinstance(call.func, (ast.Name, ast.Subscript, ast.IfExp)):
            # `ops["jax"](a, b)`, `for name, op in ops.items(): op(a, b)`: the library functions it may be
            kind = None
            bound_here = facts.parameter_values(call.func) is None  # a parameter's values are its callers' (`_effects`)
            if not bound_here and self._handed_transforms(call.func):
                return "jax"
            for value in facts.callee_values(call.func):
                if bound_here and isinstance(value, ast.Call) and self._transformed(value):
                    kind = _join(kind, "jax")  # `batched = jax.vmap(f)`: called, it traces `f` with JAX
                    continue
                if bound_here and isinstance(value, ast.Call) and _compiled_for_jax(value):
                    kind = _join(kind, "jax")  # `f = pytensor.function([], y, mode="JAX")`: called, it runs JAX
                    continue
                qualified = self.names.qualname(value)
                kind = _join(kind, call_kind(qualified) if qualified is not None else None)
            if kind is not None:
                return kind
        if isinstance(call.func, ast.Attribute):
            modules = facts.library_values(call.func.value)
            if modules:  # `xp.matmul(a, a)` with `xp` each of [np, torch, jnp]: possibly JAX, as `jnp if c else np`
                kind = None
                for module in modules:
                    kind = _join(kind, call_kind(f"{module}.{call.func.attr}"))
                return kind
            if facts.numpy_generator(call.func.value):
                return "numpy"  # `m0 = rng.normal(size=n)` of `rng = np.random.default_rng(seed)` (case 348)
            library = facts.library_call(call)
            if library is not None and library.gives_values:
                # `data = sine.sample(key, (n,))` of `sine = Sine(...)` from numpyro: the JAX library computes the value
                # it returns (case 350); one called as a statement (`mcmc.run(key)`) keeps its results in the object
                return "jax"
            receiver = self.of(call.func.value, depth)
            if call.func.attr == "cuda" and not call.args[1:]:
                return "torch"  # `transform(img).cuda()`: only a torch tensor or module has `.cuda()`
            if receiver is None:
                return self._threaded_state(call, depth)
            attr = call.func.attr
            if attr in HOST_METHODS:
                return None
            if attr in ("numpy", "cpu") and receiver == "torch":
                return "numpy" if attr == "numpy" else "torch"
            return receiver
        return None

    def library_step(self, call: ast.Call) -> str | None:
        """The function that built the object ``call`` is a method of, when one of `UNJITTED_LIBRARIES` did
        (``"brax.envs.create"`` for ``e.step(state=s, action=a)`` of ``e = envs.create(...)``; ``"gymnax.make"`` for
        ``env.step(key, state, a, params)`` of ``env, params = gymnax.make(...)``), or one of `UNJITTED_UPDATES` did
        and the method is ``update`` (``solver.update(params=p, state=s)`` of a jaxopt stochastic solver, whichever
        solver a flag picks), and the method works on JAX values or on the state its methods give back: a whole JAX
        function the file cannot read, which runs op by op unless the file jits it."""
        func = call.func
        qualified = self.names.qualname(func) or ""
        if qualified.startswith(UNJITTED_LIBRARIES):
            return qualified if self._steps_a_state(call, qualified) else None
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        makers = self._makers().get(func.value.id, set())
        updates = func.attr == "update" and _all_made_by(makers, UNJITTED_UPDATES)
        if not (_all_made_by(makers, UNJITTED_LIBRARIES) or updates):
            return None
        maker = " or ".join(sorted(makers))
        state = self._results_of(func.value.id)
        given = [*call.args, *(k.value for k in call.keywords)]
        if self.of(call) == "jax" or any(
            self.of(a) == "jax" or (isinstance(a, ast.Name) and a.id in state) for a in given
        ):
            return maker
        return None

    def _steps_a_state(self, call: ast.Call, qualified: str) -> bool:
        """``state = datatypes.update_state_by_log(state, num_steps=1)``: a function of one of `UNJITTED_LIBRARIES`
        (not a class) whose result is bound to a name it is handed, the state a loop steps (waymax#14, case 352). A
        call that builds something (``blackjax.nuts(logdensity, step_size)``) feeds nothing back into itself."""
        if names_a_class(qualified):
            return False
        parent = self.facts.program.parent(call)
        if not isinstance(parent, ast.Assign) or parent.value is not call:
            return False
        bound = {n.id for t in parent.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        given = [*call.args, *(k.value for k in call.keywords)]
        return any(isinstance(a, ast.Name) and a.id in bound for a in given)

    def _makers(self) -> dict[str, set[str]]:
        """name -> the qualified names of the functions whose results (or a part of them: ``env, params =
        gymnax.make(...)``) are bound to it, ``""`` for any other value. Flow-insensitive, built on first use with
        `_results_of`'s index."""
        if self._maker_index is None:
            self._index_assignments()
        return self._maker_index  # type: ignore[return-value]

    def _results_of(self, owner: str) -> set[str]:
        """The names bound to results of ``owner``'s methods, a part of a result too (``obs, state = env.reset(key)``,
        ``s = e.step(state=s, action=a)``). Flow-insensitive, built on first use with `_makers`' index."""
        if self._result_index is None:
            self._index_assignments()
        return self._result_index.get(owner, set())  # type: ignore[union-attr]

    def _index_assignments(self) -> None:
        """One pass over the assignments for `_makers` and `_results_of`: the names each binds (`bound_names`), what
        made the value, and whose method."""
        makers: dict[str, set[str]] = {}
        results: dict[str, set[str]] = {}
        for node in self.facts.program.of_type(ast.Assign):
            value = node.value  # type: ignore[attr-defined]
            maker = (self.names.qualname(value.func) or "") if isinstance(value, ast.Call) else ""
            owner = value.func.value.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and isinstance(value.func.value, ast.Name) else None
            for target in node.targets:  # type: ignore[attr-defined]
                for name in bound_names(target):
                    makers.setdefault(name, set()).add(maker)
                    if owner is not None:
                        results.setdefault(owner, set()).add(name)
        self._maker_index, self._result_index = makers, results

    def _threaded_state(self, call: ast.Call, depth: int) -> str | None:
        """``"jax"`` for a method of an object the model cannot resolve, built by a package it does not know
        (``e = envs.create(...)`` from brax), that computes in JAX: the object keeps a state (a result of its
        methods bound to a name its methods are given back: ``s = e.step(state=s, action=a)``) and its methods are
        given JAX values (``e.reset(jax.random.PRNGKey(0))``). Then what a method returns when it is given a JAX value
        or the state is JAX: a function that takes JAX arrays and returns what it is fed next computes in JAX. Only
        JAX: the same shape over NumPy or torch values (a gym environment's NumPy observations) says nothing."""
        owner = call.func.value  # type: ignore[attr-defined]
        if not isinstance(owner, ast.Name):
            return None
        calls = self._object_calls.get(owner.id)
        if not calls or not self._built_elsewhere(owner):
            return None
        state = self._object_state(owner.id)
        if not state:
            return None
        given = [*call.args, *(k.value for k in call.keywords)]
        if any(self.of(a, depth) == "jax" for a in given):
            return "jax"
        if not any(isinstance(a, ast.Name) and a.id in state for a in given):
            return None
        return "jax" if self._fed_jax(owner.id, calls, depth) else None

    def _fed_jax(self, owner: str, calls: list[ast.Call], depth: int) -> bool:
        """Some method of ``owner`` is given a JAX value; asked once per owner while the names' kinds stand still (one
        pass of `_infer_names`), not once per call: a test file steps one environment hundreds of times."""
        if owner not in self._fed:
            self._fed[owner] = (False, frozenset())  # while it is being answered: a call that asks again reads no
            outer, self._reads = self._reads, set()
            try:
                fed = any(self.of(a, depth) == "jax" for c in calls for a in [*c.args, *(k.value for k in c.keywords)])
            finally:
                read, self._reads = self._reads, outer
            self._fed[owner] = (fed, frozenset(read))
        fed, read = self._fed[owner]
        if self._reads is not None:
            self._reads |= read  # the binding asking depends on these names, answered now or before
        return fed

    def _built_elsewhere(self, owner: ast.Name) -> bool:
        """``owner`` is bound to what a function of a package the model does not know returns (``envs.create(...)``,
        ``make()`` imported from it): an object whose methods the file cannot read."""
        for value in self.facts.bindings.values_at(owner.id, owner):
            if not isinstance(value, ast.Call):
                continue
            qualified = self.names.qualname(value.func)
            if qualified is not None and call_kind(qualified) is None and not qualified.startswith(_KNOWN_ROOTS):
                return True
        return False

    def _object_state(self, owner: str) -> frozenset[str]:
        """The names that hold ``owner``'s state: bound to a result of one of its methods (`_results_of`) and given
        back to one."""
        if owner not in self._states:
            calls = self._object_calls.get(owner, [])
            given = {a.id for c in calls for a in [*c.args, *(k.value for k in c.keywords)] if isinstance(a, ast.Name)}
            self._states[owner] = frozenset(self._results_of(owner) & given)
        return self._states[owner]

    @property
    def _object_calls(self) -> dict[str, list[ast.Call]]:
        """plain name -> the calls of its methods (``e.reset(k)``, ``e.step(s, a)``), built on first use."""
        if self._method_calls is None:
            found: dict[str, list[ast.Call]] = {}
            for node in self.facts.program.of_type(ast.Call):
                func = node.func  # type: ignore[attr-defined]
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    found.setdefault(func.value.id, []).append(node)  # type: ignore[arg-type]
            self._method_calls = found
        return self._method_calls

    def transforms(self, value: ast.AST) -> bool:
        """``value`` is a JAX transform of a function (`_transformed`): calling it traces the function with JAX."""
        return isinstance(value, ast.Call) and self._transformed(value)

    def _handed_transforms(self, func: ast.expr) -> bool:
        """``func`` is a parameter, and every value the file's calls hand it is a JAX transform of a function other than
        a jit, written in the call or bound to the name handed (``vectorized_fn = jax.vmap(fn)``, then
        ``measure_time(vectorized_fn, ci)``): called, it traces that function with JAX, whatever the function is
        (climate_code_conversion's ``measure_time``, cases 517 and 518)."""
        passed = self.facts.parameter_values(func) or []
        if not passed:
            return False
        for value in passed:
            held = self.facts.bindings.values_at(value.id, value) if isinstance(value, ast.Name) else [value]
            # a jit is left to the readings of jitted callables (`Facts.jitted_key`), which place their findings at
            # the helper's callers (LB115 at `bench(model_jit, imgs)`, case 452)
            if not held or not all(isinstance(v, ast.Call) and self._transformed(v) and self.facts.jit_target(v) is None
                                   for v in held):
                return False
        return True

    def _transformed(self, callee: ast.Call) -> bool:
        """``callee`` is a JAX transform of a function (``jax.vmap(f)``), seen through ``jax.block_until_ready``,
        which returns a function unchanged."""
        qualified = self.names.qualname(callee.func)
        if qualified == "jax.block_until_ready" and len(callee.args) == 1 and isinstance(callee.args[0], ast.Call):
            return self._transformed(callee.args[0])
        if qualified is None and isinstance(callee.func, (ast.Subscript, ast.Name)) and callee.args:
            # `transforms["jacrev"](f)`, `t = jax.jacrev; t(f)`: a container or name holding only transforms
            held = [self.names.qualname(v) for v in self.facts.callee_values(callee.func)]
            return bool(held) and all(h in FUNCTION_TRANSFORMS for h in held)
        # not a lifted transform of a class (`nn.jit(MLP)`: called, it builds a module, `Facts.lifts_a_class`)
        return qualified in FUNCTION_TRANSFORMS and bool(callee.args) and not self.facts.lifts_a_class(callee)

    def elements(self, iterator: ast.AST, depth: int = 0) -> str | None:
        """The framework of what an iterator yields, for ``next(it)``: the results of the function of
        ``itertools.accumulate(xs, f)`` (with its ``initial``) or ``map(f, xs)``, the items of ``iter(...)`` of a
        display, what a local generator yields; through names bound to one. None when it is not known.

        Each node is answered once per question: a name rebound many times to values that read it
        (``state = env.step(state, a)`` a hundred times over) would otherwise be walked once per path, which grows
        exponentially with the rebindings (minutes on one 2,000-line test file)."""
        if self._elements_seen is not None:
            return self._elements(iterator, depth, self._elements_seen)
        self._elements_seen = {}
        try:
            return self._elements(iterator, depth, self._elements_seen)
        finally:
            self._elements_seen = None

    def _elements(self, iterator: ast.AST, depth: int, seen: dict[int, str | None]) -> str | None:
        if id(iterator) in seen:
            return seen[id(iterator)]
        if depth > 12:
            return None
        seen[id(iterator)] = None  # while it is being answered: a name read in its own value
        seen[id(iterator)] = found = self._elements_of(iterator, depth + 1)
        return found

    def _elements_of(self, iterator: ast.AST, depth: int) -> str | None:
        if isinstance(iterator, ast.Name):
            kind = None
            for value in self.facts.bindings.values_at(iterator.id, iterator):
                if value is not iterator:
                    kind = _join(kind, self.elements(value, depth))
            return kind
        if isinstance(iterator, (ast.Tuple, ast.List)):
            kind = None
            for element in iterator.elts:
                kind = _join(kind, self.of(element, depth))
            return kind
        if not isinstance(iterator, ast.Call):
            return None
        qualified = self.names.qualname(iterator.func)
        if qualified == "itertools.accumulate":
            function = argument(iterator, 1, "func")
            initial = argument(iterator, 2, "initial")
            return _join(self._result_of(function, depth) if function is not None else None, self.of(initial, depth))
        if qualified == "builtins.map" and iterator.args:
            return self._result_of(iterator.args[0], depth)
        if qualified == "builtins.iter" and iterator.args:
            return self.elements(iterator.args[0], depth)
        function = self.facts.local_def(iterator)
        if function is None:
            return None
        kind = None
        for node in local_walk(self.facts.program, function):
            if isinstance(node, ast.Yield) and node.value is not None:
                kind = _join(kind, self.of(node.value, depth))
        return kind

    def _result_of(self, function: ast.AST, depth: int) -> str | None:
        """The framework of what calling the function value ``function`` returns (a lambda, a local def)."""
        found = self.facts.function_of(function)
        if isinstance(found, ast.Lambda):
            return self.of(found.body, depth)
        return self.returned(found, depth) if found is not None else None

    def returned(self, function: ast.AST, depth: int = 0) -> str | None:
        """The framework of what a local function returns (its ``return`` values joined)."""
        if function in self._returns:
            return self._returns[function]
        self._returns[function] = None  # recursion guard
        kind: str | None = None
        for node in local_walk(self.facts.program, function):
            if isinstance(node, ast.Return) and node.value is not None:
                values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
                for value in values:
                    kind = _join(kind, self.of(value, depth))
        self._returns[function] = kind
        return kind

    def numpy_scalar(self, expr: ast.AST) -> bool:
        """``expr`` is one NumPy scalar made from a number written in the code (``np.int32(1)``,
        ``onp.float32(-0.5)``, or a name whose binding reaching it is one): a few bytes, whose copy to the device is
        no transfer worth timing apart. Its kind is NumPy all the same (numbax's mini-benchmark hands
        ``np.int32(1)`` to every backend it compares, case 460). ``np.float32(x)`` of a name may be an array."""
        if isinstance(expr, ast.Name):
            expr = self.facts.bindings.reaching(expr.id, expr)
        if not (isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords):
            return False
        if self.names.qualname(expr.func) not in _NUMPY_SCALAR_TYPES:
            return False
        value = expr.args[0]
        if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
            value = value.operand
        return isinstance(value, ast.Constant) and type(value.value) in (int, float, bool)

    def is_structure_sequence(self, expr: ast.AST, depth: int = 0) -> bool:
        """``expr`` is a Python tuple or list of arrays whose length the code fixes, not the data: a display, what
        `jnp.broadcast_arrays(*xs)`, `jnp.meshgrid` or `jax.tree.leaves` give back (one array per argument or leaf),
        a ``tuple(...)`` of a comprehension over a ``range`` of no array's size, what a local function returns when
        every return is one (netket's ``unpack_spin_sectors``), or a name every binding of which in scope is one
        (``xs = jnp.broadcast_arrays(*xs)``). Iterating it under jit walks the program's structure."""
        if depth > 4:
            return False
        depth += 1
        if isinstance(expr, (ast.Tuple, ast.List)):
            return True
        if isinstance(expr, ast.Name):
            values = self.facts.bindings.values_at(expr.id, expr)
            return bool(values) and all(v is not expr and self.is_structure_sequence(v, depth) for v in values)
        if not isinstance(expr, ast.Call):
            return False
        qualified = self.names.qualname(expr.func)
        if qualified in _SEQUENCE_RESULTS:
            return True
        if qualified in ("builtins.tuple", "builtins.list") and len(expr.args) == 1:
            argument = expr.args[0]
            if isinstance(argument, (ast.GeneratorExp, ast.ListComp)):
                iterable = argument.generators[0].iter
                counted = isinstance(iterable, ast.Call) and self.names.qualname(iterable.func) == "builtins.range"
                return counted and not any(_sized(n) for a in iterable.args for n in ast.walk(a))  # type: ignore[union-attr]
            return self.is_structure_sequence(argument, depth)
        function = self.facts.local_def(expr)
        if function is None and isinstance(expr.func, ast.Name):
            function = self.facts.def_named(expr.func.id, expr)  # a jitted def: its calls return what it returns
        if function is None:
            return False
        returns = [n.value for n in local_walk(self.facts.program, function) if isinstance(n, ast.Return)]
        return bool(returns) and all(r is not None and self.is_structure_sequence(r, depth) for r in returns)

    def given_sequences(self, function: ast.AST) -> frozenset[str]:
        """The parameters of a local ``function`` that every call of it passes a Python tuple or list: a display,
        ``tuple(...)``/``list(...)``, or the caller's own ``*args``. Under jit such an argument is a pytree: its
        length is structure, fixed per trace, not an array's length. Empty when some use of the function is not
        a plain call (handed on, stored: its other callers are not visible)."""
        sites = self.facts.call_sites(function)
        args = getattr(function, "args", None)
        if not sites or args is None:
            return frozenset()
        positional = [a.arg for a in [*args.posonlyargs, *args.args]]
        found: set[str] | None = None
        for site in sites:
            call = self.facts.program.parent(site)
            if not isinstance(call, ast.Call) or call.func is not site:
                return frozenset()
            here: set[str] = set()
            for name, argument in zip(positional, call.args):
                if isinstance(argument, ast.Starred):
                    break
                if self._is_sequence(argument):
                    here.add(name)
            found = here if found is None else found & here
        return frozenset(found or ())

    def _is_sequence(self, expr: ast.AST, depth: int = 0) -> bool:
        """A Python tuple or list as passed: a display, ``tuple(...)``/``list(...)``, the caller's ``*args``, both
        branches of a conditional, or a name or attribute every binding of which is one (clu's
        ``model_outputs = self.model_outputs_masked if masked else self.model_outputs``, each a tuple set in
        ``setUp``: an attribute is one value across the file)."""
        if depth > 4:
            return False
        if isinstance(expr, (ast.Tuple, ast.List)):
            return True
        if isinstance(expr, ast.Call) and self.names.qualname(expr.func) in ("builtins.tuple", "builtins.list"):
            return True
        if isinstance(expr, ast.IfExp):
            return self._is_sequence(expr.body, depth + 1) and self._is_sequence(expr.orelse, depth + 1)
        if isinstance(expr, ast.Attribute) and (name := dotted(expr)) is not None:
            values = [value for value, _ in self.facts.bindings.values.get(name, ())]
            return bool(values) and all(v is not expr and self._is_sequence(v, depth + 1) for v in values)
        if isinstance(expr, ast.Name):
            scope = enclosing_function(self.facts.program, expr)
            varargs = getattr(getattr(scope, "args", None), "vararg", None)
            if varargs is not None and varargs.arg == expr.id:
                return not any(
                    isinstance(n, ast.Name) and n.id == expr.id and isinstance(n.ctx, ast.Store)
                    for n in local_walk(self.facts.program, scope)
                )
            values = self.facts.bindings.values_at(expr.id, expr)
            return bool(values) and all(v is not expr and self._is_sequence(v, depth + 1) for v in values)
        return False

    def _key(self, name: str, node: ast.AST) -> _Key:
        """Which variable ``name`` is at ``node``: that of the innermost function around ``node`` that assigns it
        (and does not declare it global), else the module's; a dotted name is one value across the file."""
        if "." in name:
            return (_ATTRIBUTE, name)
        if name not in self._local_names:
            return (None, name)  # assigned at module level only, or nowhere: no scope to look through
        program = self.facts.program
        if name in self._class_names:
            body = self._class_body(node)
            if body is not None and name in self._assigned.get(body, ()):
                return (body, name)  # a class attribute, read in the class body itself (methods do not see it)
        if name in self._comprehension_names:
            comprehension = self._comprehension_binding(name, node)
            if comprehension is not None:
                return (comprehension, name)
        scope = enclosing_function(program, node)
        while scope is not None:
            if name in self._global.get(scope, ()):
                return (None, name)
            if name in self._assigned.get(scope, ()):
                return (scope, name)
            scope = enclosing_function(program, scope)
        return (None, name)

    def _comprehension_binding(self, name: str, node: ast.AST) -> ast.AST | None:
        """The comprehension around ``node`` (inside its function) whose ``for`` binds ``name``, if any: Python 3
        gives a comprehension's loop variables a scope of their own, so ``[r["n"] for r in records]`` reads its own
        ``r``, not a module's ``r`` (an array, say). The first ``for``'s iterable is read outside that scope."""
        program = self.facts.program
        inner = node
        for ancestor in program.ancestors(node):
            if isinstance(ancestor, (*FUNCTIONS, ast.ClassDef)):
                return None
            if isinstance(ancestor, _COMPREHENSION_EXPRS) and name in self._assigned.get(ancestor, ()):
                if not (ancestor.generators and inner is ancestor.generators[0]
                        and _within(node, ancestor.generators[0].iter)):
                    return ancestor
            inner = ancestor
        return None

    def _class_body(self, node: ast.AST) -> ast.ClassDef | None:
        """The class whose body holds ``node`` with no function in between (kept per node)."""
        if node not in self._class_bodies:
            found = None
            for ancestor in self.facts.program.ancestors(node):
                if isinstance(ancestor, (*FUNCTIONS, ast.ClassDef)):
                    found = ancestor if isinstance(ancestor, ast.ClassDef) else None
                    break
            self._class_bodies[node] = found
        return self._class_bodies[node]

    def _infer_names(self) -> None:
        if not self.facts.frameworks:
            return  # nothing in the file can produce an array we know
        program = self.facts.program
        for statement in program.of_type(ast.Global):
            function = enclosing_function(program, statement)
            if function is not None:
                self._global.setdefault(function, set()).update(statement.names)  # type: ignore[attr-defined]
        bindings: list[tuple[ast.AST, ast.AST]] = []
        binding_types = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.comprehension, ast.withitem)
        for node in self.facts.program.of_type(*binding_types):
            if isinstance(node, ast.Assign):
                bindings.extend((target, node.value) for target in node.targets)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                bindings.append((node.target, node.value))
            elif isinstance(node, (ast.For, ast.comprehension)):
                bindings.append((node.target, node.iter))
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                bindings.append((node.optional_vars, node.context_expr))
        in_class: dict[ast.AST, ast.ClassDef] = {}  # the binding targets written directly in a class body
        for cls in program.of_type(ast.ClassDef):
            for node in local_walk(program, cls):
                if isinstance(node, (ast.Name, ast.Tuple, ast.List)) and isinstance(getattr(node, "ctx", None), ast.Store):
                    in_class[node] = cls  # type: ignore[assignment]
        comprehension_of = {
            id(node.target): program.parent(node)
            for node in program.of_type(ast.comprehension)
            if isinstance(program.parent(node), _COMPREHENSION_EXPRS)
        }
        for target, _ in bindings:
            scope = in_class.get(target) or comprehension_of.get(id(target)) or enclosing_function(program, target)
            if id(target) in comprehension_of:
                self._comprehension_names.update(p.id for p in _flat(target) if isinstance(p, ast.Name))
            for part in _flat(target):
                if isinstance(part, ast.Name) and not (scope is not None and part.id in self._global.get(scope, ())):
                    self._assigned.setdefault(scope, set()).add(part.id)
                    if scope is not None:
                        self._local_names.add(part.id)
                    if isinstance(scope, ast.ClassDef):
                        self._class_names.add(part.id)
        # Names defined from other names: up to three passes. A pass after the first evaluates again only the
        # bindings that looked up a name whose kind the last pass changed (the others cannot change): the
        # passes over every binding of a long file were a sixth of the doctor's time.
        found: list[list[tuple[_Key, str]]] = [[] for _ in bindings]
        reads: list[set[_Key]] = [set() for _ in bindings]
        changed: set[_Key] | None = None  # None: evaluate every binding
        for _ in range(3):
            self._fed.clear()
            # what a local function returns is read from the names of the pass before: kept from an earlier pass,
            # it would hold what was not yet known (``x, y = create_jax_tensors()``, whose ``return x, y`` names
            # arrays the first pass had not placed yet: case 485's missed LB102)
            self._returns.clear()
            seen: dict[_Key, set[str]] = {}
            for k, (target, value) in enumerate(bindings):
                if changed is None or not changed.isdisjoint(reads[k]):
                    self._reads = set()
                    try:
                        found[k] = [(self._key(name, target), kind) for name, kind in self._bind(target, value)]
                    finally:
                        reads[k], self._reads = self._reads, None
                for key, kind in found[k]:
                    seen.setdefault(key, set()).add(kind)
            named = {name: kind for name, kinds in seen.items() if len(kinds) == 1 and (kind := next(iter(kinds))) != _SCALAR}
            if named == self._named:
                break
            changed = {n for n in named.keys() | self._named.keys() if named.get(n) != self._named.get(n)}
            self._named = named
        rebound = {key for key, kinds in seen.items() if len(kinds) > 1} if bindings else set()
        self._fed.clear()
        self._record_rebound(bindings, rebound)
        self._fed.clear()
        # A binding from a rebound name had no kind until the rebound names were placed (`x, y = grid, grid`
        # after `grid = jnp.linspace(...)` rebinds a NumPy `grid`): evaluate those again, now by position.
        again = [k for k, read in enumerate(reads) if read & rebound]
        self._returns.clear()
        if again:
            for k in again:
                target, value = bindings[k]
                found[k] = [(self._key(name, target), kind) for name, kind in self._bind(target, value)]
            seen = {}
            for pairs in found:
                for key, kind in pairs:
                    seen.setdefault(key, set()).add(kind)
            self._named = {
                key: kind for key, kinds in seen.items() if len(kinds) == 1 and (kind := next(iter(kinds))) != _SCALAR
            }
            newly = {key for key, kinds in seen.items() if len(kinds) > 1} - rebound
            self._fed.clear()
            self._record_rebound(bindings, newly)
            self._fed.clear()
        self._returns.clear()

    def _record_rebound(self, bindings: list[tuple[ast.AST, ast.AST]], rebound: set[_Key]) -> None:
        """The kind of each binding of the ``rebound`` names, where it takes effect, for `_at`."""
        program = self.facts.program
        for target, value in bindings:
            names = {n for n in (dotted(t) for t in _flat(target)) if n is not None}
            for name in {n for n in names if self._key(n, target) in rebound}:
                kind = next((k for n, k in self._bind(target, value) if n == name), None)
                place = (getattr(value, "end_lineno", 0) or 0, getattr(value, "end_col_offset", 0) or 0)  # bound after
                key = self._key(name, target)
                self._rebound.setdefault(key, []).append((place, enclosing_function(program, target), kind))

    def _at(self, key: _Key, use: ast.AST) -> str | None:
        """The kind of a rebound name at ``use``: its last binding before it in the same scope, if any."""
        scope = enclosing_function(self.facts.program, use)
        place = (getattr(use, "lineno", 0), getattr(use, "col_offset", 0))
        before = [kind for where, owner, kind in self._rebound[key] if owner is scope and where < place]
        return before[-1] if before and before[-1] != _SCALAR else None

    def _bind(self, target: ast.AST, value: ast.AST) -> list[tuple[str, str]]:
        if isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                return [pair for t, v in zip(target.elts, value.elts) for pair in self._bind(t, v)]
            kind = self.of(value) if isinstance(value, ast.Call) else None
            return [(n, kind) for t in target.elts if kind and (n := dotted(t)) is not None]
        name = dotted(target)
        kind = self.of(value)
        if kind is None and isinstance(value, ast.Call) and self.names.qualname(value.func) in _PYTHON_SCALARS:
            kind = _SCALAR  # `n = int(n)` after `for n in onp.logspace(...)`: from here on a Python number
        return [(name, kind)] if name is not None and kind is not None else []


_ATTRIBUTE = "attribute"  # the scope of a dotted name's key: one value across the file
# A binding to a Python number made from a value (`n_chains = int(n_chains)`): no array of any framework. It only
# places a rebinding (`_at`), so a name once an array element and then converted is read as what it is where used;
# `of` never returns it.
_SCALAR = "python scalar"
_PYTHON_SCALARS = frozenset({"builtins.int", "builtins.float", "builtins.bool", "builtins.len", "builtins.round"})
_Key = tuple[object, str]
_NUMPY_SCALAR_TYPES = frozenset(
    f"numpy.{t}" for t in (
        "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64",
        "bool_", "intc", "intp", "single", "double", "half", "longlong",
    )
)


def _compiled_for_jax(call: ast.Call) -> bool:
    """``call`` builds a function for the JAX backend of a library that compiles to several (PyTensor's
    ``function(inputs, outputs, mode="JAX")``, a ``backend="jax"`` option): the function it returns runs JAX and gives
    JAX arrays back (case 285)."""
    return any(
        k.arg in ("mode", "backend", "linker") and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)
        and k.value.value.lower() == "jax"
        for k in call.keywords
    )


def _sized(node: ast.AST) -> bool:
    """``x.shape[0]``, ``x.size``, ``len(x)``: a count an array's size may set."""
    if isinstance(node, ast.Attribute):
        return node.attr in ("shape", "size")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


def _flat(target: ast.AST) -> list[ast.AST]:
    return list(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else [target]


def _join(a: str | None, b: str | None) -> str | None:
    """Mixed operands: a JAX or torch operand decides the result's framework over NumPy."""
    for kind in ("jax", "torch", "numpy"):
        if kind in (a, b):
            return kind
    return None


def _all_made_by(makers: set[str], libraries: tuple[str, ...]) -> bool:
    """Every maker is one of ``libraries`` (``solver = OptaxSolver(...)`` in one branch and ``PolyakSGD(...)`` in
    another are both jaxopt's stochastic solvers); False when some value bound to the name is anything else."""
    return bool(makers) and all(m.startswith(libraries) for m in makers)
