"""What the doctor knows about a program before any rule runs: functions, models, and what gets jitted.

Everything here is static and flow-insensitive: a name that is jitted anywhere is a jitted name,
a name bound to a PyTorch module anywhere is a model. Scripts and notebooks rarely rebind such
names, and when they do the doctor errs towards saying nothing.
"""

from __future__ import annotations

import ast
import dataclasses
import functools

from ._bindings import Bindings
from ._names import (
    JAX_LIBRARIES, LIBRARY_RUNS, NOT_PROJECT_MODULES, STEPWISE_PROGRESS, UNJITTED_LIBRARIES, Names, dotted,
    engine_framework, engine_values, names_a_class,
)
from ._program import Program
from ._syntax import FUNCTIONS as FUNCTION_SCOPES
from ._syntax import enclosing_function, enclosing_loop, given_argument, parameter_default, parameter_names

_JAX_PROFILER_CONTEXTS = frozenset(
    {"jax.profiler.trace", "jax.profiler.TraceAnnotation", "jax.profiler.StepTraceAnnotation"}
)

JIT_TRANSFORMS = frozenset(
    {"jax.jit", "jax.pmap", "jax.experimental.pjit.pjit", "flax.nnx.jit", "flax.linen.jit", "equinox.filter_jit",
     "brainstate.transform.jit", "brainstate.compile.jit",  # brainstate's jit: jax.jit over the states a function uses
     "brainpy.math.jit",  # BrainPy's: jax.jit with an object's `Variable`s as arguments and outputs
     "flax.nnx.jit_partial"}  # `nnx.jit_partial(step, model, optimizer)`: nnx.jit with the graph arguments bound
)
# Flax linen's lifted transforms: applied to a Module class they give back a class (`nn.jit(MLP)`), whose call builds a
# module and runs nothing (`Facts.lifts_a_class`); applied to a function, they are the jit they lift.
LIFTED_CLASS_TRANSFORMS = frozenset({"flax.linen.jit"})
# What makes a NumPy random generator (`rng = np.random.default_rng(0)`; `Facts.numpy_generator` reads one).
NUMPY_GENERATORS = frozenset({"numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator"})
# Transforms that return a function still running the wrapped one: jit(grad(f)) traces f.
_WRAPPING = frozenset(
    {
        "functools.partial", "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.checkpoint", "jax.remat",
        "jax.named_call", "jax.jacfwd", "jax.jacrev", "jax.hessian", "equinox.filter_grad",
        "equinox.filter_value_and_grad", "equinox.filter_vmap", "flax.nnx.grad", "flax.nnx.value_and_grad",
        "flax.nnx.vmap",
        "jax.block_until_ready",  # of a function: returns it unchanged (`_effects.wraps_a_function`)
    }
)
_MODEL_METHODS = frozenset(
    {"to", "eval", "train", "cuda", "cpu", "float", "double", "half", "bfloat16", "requires_grad_"}
)
_TORCH_WRAPPERS = frozenset({"torch.compile", "torch.jit.script", "torch.jit.trace", "torch.nn.DataParallel"})
_FLAX_ROOTS = ("flax.linen.", "flax.nnx.", "equinox.")
# Keras 3 computes with the backend the process picks once, before `import keras`: the `KERAS_BACKEND` variable or
# `keras.config.set_backend`. A file written for several backends reads it back and branches on its name.
_KERAS_BACKEND_VARIABLE = "KERAS_BACKEND"
_KERAS_BACKEND_READS = frozenset({"keras.config.backend", "keras.backend.backend"})
_ENVIRONMENT_READS = frozenset({"os.environ.get", "os.getenv", "os.environ.setdefault"})
# What builds a Keras model (the functional `keras.Model(inputs, outputs)`, `keras.Sequential([...])`, a saved or
# preset one): a call of it runs the model's layers on the backend. Layers alone (`layers.Dense(10)(x)`) build the
# graph on symbolic inputs in the functional style, no work.
_KERAS_MODEL_BUILDERS = frozenset({
    "keras.Model", "keras.Sequential", "keras.models.Model", "keras.models.Sequential", "keras.models.load_model",
    "keras.saving.load_model",
})
_KERAS_MODEL_ROOTS = ("keras.applications.", "keras_hub.models.", "keras_nlp.models.")
# lax control flow run outside jit compiles one program for the functions it is given, cached per function
# object, as jax.jit does: the positions of those function arguments.
_COMPILED_ARGUMENTS = {
    "jax.lax.while_loop": (0, 1), "jax.lax.fori_loop": (2,), "jax.lax.scan": (0,), "jax.lax.map": (0,),
    "jax.lax.cond": (1, 2), "jax.lax.switch": (1,), "jax.lax.associative_scan": (0,),
}
# PyTorch/XLA records torch operations on an XLA device lazily: these calls cut the recorded graph and hand it to the
# device (`mark_step`, `sync`, `optimizer_step`), or wait for the device (`wait_device_ops`). Each is work on the
# device, as a jitted call is; the torch calls before it only trace.
XLA_DEVICE_CALLS = frozenset(
    {
        "torch_xla.core.xla_model.mark_step", "torch_xla.core.xla_model.optimizer_step",
        "torch_xla.core.xla_model.wait_device_ops", "torch_xla.sync", "torch_xla.step",
    }
)
# The XLA device PyTorch/XLA places tensors and modules on (`x.to(xm.xla_device())`): not CUDA, whatever else the file
# uses; its work is waited for with `xm.wait_device_ops()`, not `torch.cuda.synchronize()`.
XLA_DEVICES = frozenset({"torch_xla.core.xla_model.xla_device", "torch_xla.device"})
# Libraries written in JAX whose classes build objects with JAX methods (`Facts.library_call`): `JAX_LIBRARIES`, and the
# environment libraries whose objects' methods run JAX (gymnax's `RolloutWrapper.batch_rollout`).
_JAX_WRITTEN = (*JAX_LIBRARIES, *UNJITTED_LIBRARIES)
# Run a program's main function once: `app.run(main)`.
_ENTRY_POINT_RUNNERS = frozenset({"absl.app.run", "fire.Fire", "typer.run"})

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


@dataclasses.dataclass(frozen=True)
class JitSite:
    """How a function comes to run under jit."""

    node: ast.AST  # the decorator, or the jax.jit(...) call
    label: str  # "@jax.jit", or "jitted_forward = jax.jit(forward)"
    direct: bool = True  # False: traced because a jitted function calls it
    caller: str = ""  # for traced helpers: the jitted function that calls it


@dataclasses.dataclass(frozen=True)
class LibraryCall:
    """A method of an object a JAX library's class built (`Facts.library_call`), and what it gives back or leaves
    running when it returns: the one vocabulary of such calls that the model's readers share.

    - ``gives_values``: its result is used (``data = sine.sample(key, (n,))``): JAX values the library computed
      (`Kinds`). One called as a statement (``mcmc.run(key)``) keeps what it computed on the object and returns
      nothing to wait on (LB102 names the samples and makes no edit).
    - ``runs_program``: a `LIBRARY_RUNS` method (``run``, ``sample``, ``warmup``), the library's whole program, which
      returns before its work is done (numpyro#440, case 351).
    - ``waits_as_it_goes``: a run of a `STEPWISE_PROGRESS` class that reads every step back for its progress bar.
    """

    gives_values: bool
    runs_program: bool
    waits_as_it_goes: bool

    @property
    def pending(self) -> bool:
        """Its program is still running when it returns: a run not read back step by step (`_effects.pending_jax`)."""
        return self.runs_program and not self.waits_as_it_goes

    @property
    def keeps_results(self) -> bool:
        """A pending run written as a statement: what it computed stays on the object (``mcmc.run(key, X, Y)``)."""
        return self.pending and not self.gives_values


class Facts:
    """Functions, classes, model instances, jitted callables, and file-wide settings of one program."""

    def __init__(self, program: Program, names: Names) -> None:
        self.program = program
        self.names = names
        module = program.module
        self.defs: dict[str, FunctionNode] = {}  # by name: module level first, else the only/last nested one
        self._same_name: dict[str, list[FunctionNode]] = {}
        self._owner: dict[ast.AST, ast.AST | None] = {}  # def -> the function it is nested in
        self._uses: dict[str, list[ast.Name]] | None = None
        self._jitted_keys: dict[ast.AST, str | None] | None = None
        self._local_defs: dict[ast.AST, FunctionNode | None] | None = None
        self._arguments: dict[ast.AST, list[ast.expr] | None] | None = None
        self._plain_defs: dict[tuple[str, ast.AST], bool] | None = None
        self._stored: dict[ast.AST, frozenset[str]] = {}  # function -> the names stored in it (`stored_in`), as asked
        self.classes: dict[str, ast.ClassDef] = {}
        self.jit_wrappers: set[str] = set()
        nested: dict[str, FunctionNode] = {}
        for node in program.of_type(ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                parent = program.parent(node)
                if isinstance(parent, ast.ClassDef):
                    continue
                self._same_name.setdefault(node.name, []).append(node)
                self._owner[node] = enclosing_function(program, node)
                (self.defs if self._owner[node] is None else nested)[node.name] = node
            elif isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
        for name, node in nested.items():
            self.defs.setdefault(name, node)
        self.frameworks = frozenset(r for r in ("jax", "torch", "numpy", "flax", "equinox", "optax") if names.imports_root(r))
        if names.imports_root("torch_xla"):
            self.frameworks |= {"torch"}  # PyTorch/XLA is PyTorch, its tensors on an XLA device
        # JAX code: the file imports JAX, a JAX model library, or a library written in JAX (a module of such a
        # package, `from netket.utils import struct`, is one too: its functions are handed JAX work)
        self.jax_code = bool(self.frameworks & {"jax", "flax", "equinox", "optax"}) or any(
            names.imports_root(root) for root in ("haiku", *(r.rstrip(".") for r in JAX_LIBRARIES))
        ) or names.imports_jax_backend()
        text = program.text
        self.torch_classes, self.flax_classes = self._model_classes()
        # What names denote (`_bindings`), and each alias of a jitted callable -> the name it aliases.
        self.bindings = Bindings(program, names, self.classes)
        self.values = self.bindings.values
        self.methods = self.bindings.methods
        self._alias_root: dict[str, str] = {}
        self._returns_function: dict[ast.AST, ast.AST | None] = {}
        self._factory_returns: dict[ast.AST, list[ast.expr]] = {}
        self.torch_models: set[str] = set()
        self.flax_models: dict[str, str] = {}  # dotted name -> local class name ("" when from a library)
        self.optax_transforms: set[str] = set()  # names bound to optax.adam(...), optax.chain(...)
        if self.frameworks & {"torch", "flax", "equinox", "optax"} or "random" in text:
            self._find_instances(module)
        self.jitted: dict[str, JitSite] = {}
        # What `jax.jit(...)` is applied to, by name (`step = jax.jit(nuts.step)`): a JAX function, which a
        # call by that name runs without the jit.
        self.jit_targets: dict[str, JitSite] = {}
        self._transformed: frozenset[str] | None = None  # `transformed_here`: imports handed to a JAX transform
        self._jitted_imports: dict[str, JitSite] | None = None  # `_imported_targets`
        self.aot: set[str] = set()
        # jitted callables an object holds, by key, found as asked (`held_attribute`): `apply_fn=jax.jit(f)`
        self.held_jits: dict[str, JitSite] = {}
        self.jitted_defs: dict[ast.AST, JitSite] = {}
        # every jit transform's name contains one of the first two; `.lower(x).compile()` is the AOT executable
        if "jit" in text or "pmap" in text or ".lower(" in text:
            self._find_jitted(module)
            self._follow_jitted_aliases()
        self.traced_defs: dict[ast.AST, JitSite] = dict(self.jitted_defs)
        self._propagate_tracing()
        lowered = text.lower()
        self.x64 = "enable_x64" in lowered and self._mentions_x64(program)
        self.cuda = ("cuda" in lowered and self._mentions_cuda(program, names)) or (
            "profile" in lowered and self._profiles_cuda(program, names)
        )
        self._jitted_keys = {}  # each call's `jitted_key`, as asked, now that what is jitted is known
        self._local_defs = {}  # each call's `local_def`, likewise (several rules ask about every timed call)
        self._arguments = {}  # each callee's `argument_values`: every call of a name asks through several questions
        self._plain_defs = {}  # each call's `_def_in_effect_is_plain`: `jitted_key` and `local_def` both ask

    # --- jit ---------------------------------------------------------------------------------
    def is_jit(self, expr: ast.AST) -> bool:
        """``expr`` is a jit transform: ``jax.jit``, an alias, ``partial(jax.jit, ...)``, ``jax.jit(**options)``."""
        if self.names.qualname(expr) in JIT_TRANSFORMS or (self.jit_wrappers and dotted(expr) in self.jit_wrappers):
            return True
        if isinstance(expr, ast.Subscript):  # `transforms["jit"]`
            return any(self.is_jit(e) for e in self.bindings.elements(expr.value, expr))
        if isinstance(expr, ast.Call):
            bound = self.names.partial_target(expr)
            if bound is not None:
                return self.is_jit(bound)
            return not expr.args and self.is_jit(expr.func)
        return False

    def jit_target(self, node: ast.AST) -> ast.expr | None:
        """``f`` when ``node`` is ``jax.jit(f, ...)`` or ``partial(jax.jit, ...)(f)``; else None. Not a jit of a
        class (Flax linen's lifted ``nn.jit(MLP)``, `names_a_class`): it gives back a class, whose call builds a
        module and runs nothing; the module's methods compile when it is applied (`is_flax_call`)."""
        if isinstance(node, ast.Call) and node.args and self.is_jit(node.func) and not self.lifts_a_class(node):
            return node.args[0]
        return None

    def lifts_a_class(self, transform: ast.Call) -> bool:
        """``transform`` is a lifted transform of a class (`LIFTED_CLASS_TRANSFORMS`: ``nn.jit(MLP)``), which gives back
        a class: called, it builds a module. ``eqx.filter_jit(Model)(key)`` or ``jax.jit(Model)(key)`` is no such thing:
        it compiles the constructor and returns the module's arrays (Equinox's way to build a model under jit)."""
        return bool(transform.args) and self.names.qualname(transform.func) in LIFTED_CLASS_TRANSFORMS \
            and self.names_a_class(transform.args[0])

    def names_a_class(self, expr: ast.AST) -> bool:
        """``expr`` names a class: one this file defines (``MLP``), or an imported or library name whose last part
        is capitalised (``models.MLP``, ``nn.Dense``), the convention `JAX_LIBRARIES`' readings rely on too."""
        if isinstance(expr, ast.Name) and expr.id in self.classes:
            return True
        qualified = self.names.qualname(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
        return qualified is not None and names_a_class(qualified)

    def def_named(self, name: str, at: ast.AST) -> FunctionNode | None:
        """The local function ``name`` refers to at ``at``: the one defined in the nearest enclosing scope."""
        candidates = self._same_name.get(name)
        if not candidates:
            return None
        if len(candidates) == 1:
            owner = self._owner[candidates[0]]
            if owner is None or owner is at or any(a is owner for a in self.program.ancestors(at)):
                return candidates[0]
            return None  # defined inside another function: not visible here
        for scope in [*(a for a in self.program.ancestors(at) if isinstance(a, FUNCTION_SCOPES)), None]:
            found = [c for c in candidates if self._owner[c] is scope]
            if not found:
                continue
            if scope is not None:
                return found[-1]
            reader = enclosing_function(self.program, at)
            if reader is None:
                return _in_effect(found, at)
            # a helper reading the global runs what is bound where module code calls it, when every call agrees
            bound = {id(d): d for d in (_in_effect(found, site) for site in self._module_sites(reader, name))}
            return next(iter(bound.values())) if len(bound) == 1 else found[-1]
        return None

    def alternative_defs(self, function: FunctionNode) -> list[FunctionNode]:
        """The other defs of ``function``'s name in its scope that sit in another branch of an ``if`` holding both
        (``if backend == "jax": def sync(out): jax.block_until_ready(out)`` / ``elif backend == "torch": def
        sync(out): torch.cuda.synchronize()``, case 504): one of them is bound when the program runs, whichever
        branch it takes, so the def last written is not the only one a call can run."""
        owner = self._owner.get(function)
        return [d for d in self._same_name.get(function.name, [])
                if d is not function and self._owner[d] is owner and _in_other_branches(self.program, d, function)]

    def _module_sites(self, reader: ast.AST, name: str) -> list[ast.Call]:
        """The module-level calls of the function ``reader`` (`Bindings.module_call_sites`), when it reads the global
        ``name`` rather than a parameter of its own; none otherwise."""
        if name in parameter_names(reader):
            return []
        return self.bindings.module_call_sites(reader)

    def _def_in_effect_is_plain(self, name: str, call: ast.Call) -> bool:
        """Module-level code calls ``name`` where it is bound to a def that no decorator jits, though a later
        binding of the name is jitted (``def f`` for NumPy, later ``@jax.jit def f``; ``def selu`` timed, then
        ``selu = jax.jit(selu)``): statements run in order, so the call runs the binding made last before it."""
        known = self._plain_defs
        if known is None:
            return self._find_def_in_effect_is_plain(name, call)
        key = (name, call)
        if key not in known:
            known[key] = self._find_def_in_effect_is_plain(name, call)
        return known[key]

    def _find_def_in_effect_is_plain(self, name: str, call: ast.Call) -> bool:
        defs = [d for d in self._same_name.get(name, []) if self._owner[d] is None]
        if not defs:
            return False
        scope = enclosing_function(self.program, call)
        while isinstance(scope, ast.Lambda) and self._run_where_written(scope):
            scope = enclosing_function(self.program, scope)
        if scope is not None:  # a helper reading the global: what is bound where module code calls the helper
            sites = self._module_sites(scope, name)
            return bool(sites) and all(self._find_def_in_effect_is_plain(name, site) for site in sites)
        where = (call.lineno, call.col_offset)
        bound: list[tuple[tuple[int, int], ast.AST]] = [((d.lineno, d.col_offset), d) for d in defs]
        bound += [((v.lineno, v.col_offset), v) for v, scope in self.bindings.values.get(name, ()) if scope is None]
        before = [b for b in bound if b[0] < where]
        if not before:
            return False
        function = max(before, key=lambda b: b[0])[1]
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False  # bound by an assignment: jitted as the assignment says
        site = self.jitted_defs.get(function)
        return site is None or site.node not in function.decorator_list

    def _run_where_written(self, function: ast.Lambda) -> bool:
        """A lambda handed straight to a call (``timeit.timeit(lambda: f(x), number=1)``, ``jax.block_until_ready``
        of one called at once) and stored nowhere: the call runs it, if at all, where the lambda is written, so a name
        it reads holds what is bound there (the ``timeit-lambda`` variant of a correct copy of case 311's lecture code:
        the plain ``def f`` a later ``@jax.jit def f`` rebinds)."""
        holder = self.program.parent(function)
        if isinstance(holder, ast.keyword):
            holder = self.program.parent(holder)
        return isinstance(holder, ast.Call) and holder.func is not function

    def function_of(self, expr: ast.AST, depth: int = 0) -> ast.AST | None:
        """The local def or lambda that ``expr`` denotes, through ``grad``/``vmap``/``partial``/``jit`` wrappers,
        names bound to it (``g = f``, ``g = jit(f) if flag else f``), a class's methods (``Model.step``) and
        factories (``f = make_f()`` where ``make_f`` returns a local def)."""
        if depth > 8:
            return None
        depth += 1
        if isinstance(expr, ast.Lambda):
            return expr
        if isinstance(expr, ast.Name):
            found = self.def_named(expr.id, expr)
            if found is not None:
                return found
            for value in self.bindings.values_at(expr.id, expr):
                found = self.function_of(value, depth)
                if found is not None:
                    return found
            return None
        if isinstance(expr, ast.Attribute):
            return self.methods.get(self.bindings.method_key(expr) or "")
        if isinstance(expr, ast.IfExp):
            return self.function_of(expr.body, depth) or self.function_of(expr.orelse, depth)
        if isinstance(expr, ast.Subscript):  # `fns["plain"]`, `models[0]`
            for element in self.bindings.elements(expr.value, expr):
                found = self.function_of(element, depth)
                if found is not None:
                    return found
            return None
        if isinstance(expr, ast.Call) and expr.args and (
            self.names.qualname(expr.func) in _WRAPPING or self.jit_target(expr) is not None
        ):
            return self.function_of(expr.args[0], depth)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            factory = self.def_named(expr.func.id, expr)
            if factory is not None:
                return self._returned_function(factory, depth)
        return None

    def own_method(self, expr: ast.AST) -> ast.AST | None:
        """The method ``self.name`` denotes where it is read inside a method of a local class: that class's def of
        ``name``, through ``grad``/``vmap``/``partial`` wrappers (``jax.vmap(jax.value_and_grad(self.loss))`` in
        PytorchVsJax's ``Trainer.benchmark``, case 481). ``function_of`` reads no ``self``: who ``self`` is depends
        on the class, known here only from the enclosing ``class`` statement."""
        while isinstance(expr, ast.Call) and expr.args and self.names.qualname(expr.func) in _WRAPPING:
            expr = expr.args[0]
        if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self"):
            return None
        owner = next((a for a in self.program.ancestors(expr) if isinstance(a, ast.ClassDef)), None)
        return None if owner is None else self.methods.get(f"{owner.name}.{expr.attr}")

    def callee_values(self, func: ast.AST, depth: int = 0) -> list[ast.expr]:
        """What a callee that is no def may be: the values bound to its name (a loop over a container binds
        each element), a container's elements (``ops["jax"]``), both branches of a conditional."""
        if depth > 4:
            return []
        if isinstance(func, ast.IfExp):
            found = [func.body, func.orelse]
        elif isinstance(func, ast.Subscript):
            found = self.bindings.elements(func.value, func)
        elif isinstance(func, ast.Name) and self.def_named(func.id, func) is None:
            found = self.bindings.values_at(func.id, func)
        else:
            return []
        out: list[ast.expr] = []
        for value in found:
            value = self._waited_value(value)
            deeper = self.callee_values(value, depth + 1) if isinstance(value, (ast.IfExp, ast.Subscript, ast.Name)) else []
            out.extend(deeper or [value])
        return out

    def _waited_value(self, value: ast.expr) -> ast.expr:
        """What ``jax.block_until_ready(x)`` returns: ``x`` itself, waited for. ``compiled =
        jax.block_until_ready(jax.jit(jax.vmap(rollout)).lower(...).compile())`` binds the executable compiled ahead of
        time, not a transform to run (Octax's ``measure_time.py``, case 443)."""
        while isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords \
                and self.names.qualname(value.func) == "jax.block_until_ready":
            value = value.args[0]
        return value

    def library_values(self, expr: ast.AST, depth: int = 0) -> list[str]:
        """The library names (``"jax.numpy"``, ``"numpy"``) a value that is no import may be, when every value it
        may be is one: a test's parameter that ``@pytest.mark.parametrize('xp', [np, torch, jnp])`` gives each
        module in turn (also handed on, ``benchmark(run, a, xp)``), a name bound to ``jnp if gpu else np``, both
        branches of a conditional. Empty when any of them is something else or unknown."""
        named = self.names.qualname(expr)
        if named is not None:
            return [] if depth == 0 or named.startswith("builtins.") else [named]
        if depth > 4:
            return []
        if isinstance(expr, ast.Attribute):  # `xp.linalg`
            return [f"{module}.{expr.attr}" for module in self.library_values(expr.value, depth + 1)]
        if isinstance(expr, ast.IfExp):
            found = [expr.body, expr.orelse]
        elif isinstance(expr, ast.Name):
            given = self.parameter_values(expr)
            found = given if given is not None else self.bindings.values_at(expr.id, expr)
        else:
            return []
        out: list[str] = []
        for value in found:
            deeper = self.library_values(value, depth + 1)
            if not deeper:
                return []
            out.extend(deeper)
        return out

    def callee_qualname(self, func: ast.AST) -> str | None:
        """The library function a callee names, through the names and containers that hold it
        (``loops = {"while": lax.while_loop}; loops["while"](...)`` is ``jax.lax.while_loop``): None unless every
        value it may be names the same one."""
        found = self.names.qualname(func)
        if found is not None or not isinstance(func, (ast.Subscript, ast.Name, ast.IfExp)):
            return found
        named = {self.names.qualname(v) for v in self.callee_values(func)}
        return named.pop() if len(named) == 1 else None

    def decorator_wrappers(self, function: ast.AST) -> list[ast.AST]:
        """The local functions that run when ``function``'s name is called because a local decorator replaced it by
        one it returns: ``@timed def f`` with ``def timed(fun): def wrapper(*a): ...; return wrapper`` runs
        ``wrapper`` (``@timed(name)``, a decorator factory, runs what the factory's result returns)."""
        found: list[ast.AST] = []
        for decorator in getattr(function, "decorator_list", ()):
            callee = decorator.func if isinstance(decorator, ast.Call) else decorator
            factory = self.def_named(callee.id, decorator) if isinstance(callee, ast.Name) else None
            if factory is None:
                continue
            returned = self._returned_function(factory, 0)
            if isinstance(decorator, ast.Call) and isinstance(returned, (ast.FunctionDef, ast.AsyncFunctionDef)):
                returned = self._returned_function(returned, 0)
            if isinstance(returned, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append(returned)
        return found

    def _returned_function(self, factory: FunctionNode, depth: int) -> ast.AST | None:
        """The local function a factory returns (``def make(): def f(...): ...; return f``); asked once per
        factory: a long file calls its functions thousands of times."""
        known = self._returns_function
        if factory in known:
            return known[factory]
        known[factory] = None  # recursion guard
        found = None
        for node in self.program.walk(factory):
            if isinstance(node, ast.Return) and node.value is not None and enclosing_function(self.program, node) is factory:
                found = self.function_of(node.value, depth)
                if found is not None and found is not factory:
                    break
                found = None
        known[factory] = found
        return found

    def _follow_jitted_aliases(self) -> None:
        """Names bound to a jitted callable however it is wrapped: ``g = f_jit``, ``g = jax.vmap(f_jit)``,
        ``g = partial(f_jit, 1)``, ``g = jax.jit(f) if flag else f`` (one branch jitted: it may compile and run
        asynchronously), ``g = make_step()`` returning a jitted def, ``g = Model.step``. A plain alias shares its
        target's key, so a warm-up through one name counts for the other."""
        for key, def_node in self.methods.items():
            site = self.jitted_defs.get(def_node)
            if site is not None and site.node in def_node.decorator_list:  # `@jax.jit` on the method itself
                self.jitted.setdefault(key, site)
        # `m = Model(...)`: `m.apply` is the jitted method `Model.apply`
        for name, bound in self.values.items():
            for value, _scope in bound:
                cls = dotted(value.func) if isinstance(value, ast.Call) else None
                if cls not in self.classes:
                    continue
                prefix = f"{cls}."
                for key in [k for k in self.jitted if k.startswith(prefix) and k in self.methods]:
                    method = f"{name}.{key[len(prefix):]}"
                    self.jitted.setdefault(method, self.jitted[key])
                    self._alias_root.setdefault(method, key)
        for _ in range(4):  # aliases of aliases
            changed = False
            for name, bound in self.values.items():
                if name in self.jitted:
                    continue
                for value, _scope in bound:
                    key = self._jitted_root(value)
                    if key is None:
                        continue
                    site = self.jitted.get(key) or JitSite(value, f"{name} = {ast.unparse(value)}")
                    self.jitted[name] = site
                    if isinstance(self.names.partial_target(value) or value, (ast.Name, ast.Attribute)):
                        # the same compiled function: `g = f_jit`, or `g = partial(f_jit, ...)` (bound arguments
                        # are arguments of f_jit); a vmap or another jit of it compiles a program of its own
                        self._alias_root[name] = self._alias_root.get(key, key)
                    changed = True
                    break
            if not changed:
                break

    def _jitted_root(self, value: ast.expr, depth: int = 0) -> str | None:
        if depth > 8:
            return None
        name = dotted(value)
        if name is not None:
            if isinstance(value, ast.Name) and name in self.jitted and self._def_in_effect_is_plain(name, value):
                return None  # `g = f` where `f` is still a plain def, jitted only by a later `@jax.jit def f`
            return name if name in self.jitted else None
        if self.jit_target(value) is not None:  # `jit(f) if flag else f`: the jit call is a branch
            return ast.unparse(value)
        if isinstance(value, ast.IfExp):
            return self._jitted_root(value.body, depth + 1) or self._jitted_root(value.orelse, depth + 1)
        if isinstance(value, ast.Subscript):
            return next((k for e in self.bindings.elements(value.value, value) if (k := self._jitted_root(e, depth + 1))), None)
        if isinstance(value, ast.Call) and value.args and self.names.qualname(value.func) in _WRAPPING:
            return self._jitted_root(value.args[0], depth + 1)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            factory = self.def_named(value.func.id, value)
            returned = self._returned_function(factory, 0) if factory is not None else None
            site = self.jitted_defs.get(returned) if returned is not None else None
            if site is not None and site.node in getattr(returned, "decorator_list", ()):
                return returned.name if returned.name in self.jitted else None
            if factory is not None:
                return self._returned_jit(factory, depth)
        return None

    def _returned_jit(self, factory: FunctionNode, depth: int) -> str | None:
        """The key of the jitted callable every ``return`` of ``factory`` gives back: optax's Flax example's
        ``def make_mse_func(x, y): def mse(params): ...; return jax.jit(mse)``, so ``loss = make_mse_func(x, y)``
        is a jitted function and ``jax.value_and_grad(loss)`` differentiates a compiled program."""
        returns = self._factory_returns.get(factory)
        if returns is None:  # the program does not change, the jitted names do: only the walk is kept
            returns = self._factory_returns[factory] = [
                node.value for node in self.program.walk(factory)
                if isinstance(node, ast.Return) and node.value is not None
                and enclosing_function(self.program, node) is factory
            ]
        keys = [self._jitted_root(value, depth + 1) for value in returns]
        return keys[0] if keys and all(k is not None for k in keys) else None

    def jitted_key(self, call: ast.Call) -> str | None:
        """A key naming the jitted callable ``call`` calls (``"step"``, ``"self.step"``, ``"jax.jit(f)"``)."""
        known = self._jitted_keys
        if known is not None and call in known:
            return known[call]
        key = None
        name = dotted(call.func)
        passed = self.parameter_values(call.func) if name is not None and name in self.jitted else None
        if passed is not None:
            # a parameter that shares its name with a jitted callable of the file is whatever its callers pass
            # (`def timer(f): f()` beside a module's `f = jax.jit(...)`, called as `timer(lambda: ...)`)
            key = next((k for value in passed if (k := self._passed_key(value)) is not None), None)
        elif name is not None and name in self.jitted:
            plain = isinstance(call.func, ast.Name) and (
                self._def_in_effect_is_plain(name, call) or not self._jitted_in_scope(call.func)
            )
            if not plain:
                key = self._alias_root.get(name, name)
        elif self.jit_target(call.func) is not None:
            key = ast.unparse(call.func)
        elif isinstance(call.func, (ast.Call, ast.IfExp, ast.Subscript)):  # jax.vmap(f_jit)(x), fns["jax"](x)
            key = self.jitted_key_of(call.func)
        elif isinstance(call.func, ast.Attribute) and call.func.attr in self._jitted_keywords:
            key = self.jitted_key_of(call.func)  # `state.apply_fn(x)`: what `TrainState.create` was handed
        if known is not None:
            known[call] = key
        return key

    def _jitted_in_scope(self, func: ast.Name) -> bool:
        """Some value bound to ``func``'s name in its scope or a scope around it is jitted; True also when the
        source binds it to nothing there that it can read (a def, an import, a parameter: the file-wide answer
        stands). Another function's ``fn = jax.jit(g)`` does not make this one's ``fn = np.sin`` jitted."""
        if self.def_named(func.id, func) is not None or func.id in self._declared_global:
            return True  # a `global f` rebinds the module's name from inside a function: scopes do not tell
        values = self.bindings.values_at(func.id, func)
        return not values or any(self._jitted_root(value) is not None for value in values)

    @functools.cached_property
    def _declared_global(self) -> frozenset[str]:
        """The names some function declares ``global``."""
        return frozenset(n for g in self.program.of_type(ast.Global) for n in g.names)  # type: ignore[attr-defined]

    def jitted_on_some_path(self, call: ast.Call) -> bool:
        """Some binding of the callee that reaches ``call`` is jitted (``if args.jit: f = jax.jit(f)``,
        ``g = jit(f) if flag else f``): whether the call runs op by op depends on a flag the source does not fix.
        A name is read in its own scope here (`Bindings.values_at`), not across the file: another function's
        ``fn = jax.jit(...)`` says nothing of this one's ``fn = jax.vmap(...)``."""
        func = call.func
        if isinstance(func, ast.Name) and self.def_named(func.id, func) is None:
            values = self.bindings.values_at(func.id, func)  # the callee's place: a harness's call is made up
            if values:
                return any(self.jitted_key_of(value) is not None for value in values)
        return self.jitted_key(call) is not None

    def calls_jax_callable(self, call: ast.Call) -> bool:
        """``call`` runs compiled JAX code: a jitted name, an AOT-compiled one, or ``jax.jit(f)(x)``."""
        return self.jitted_key(call) is not None or dotted(call.func) in self.aot

    def transformed_here(self, call: ast.Call) -> bool:
        """``call`` runs a function that the file hands to a JAX transform elsewhere (``jax.jit(f, ...)``,
        ``jax.vmap(f)``): handing it over says it is JAX code, whatever library it comes from, so it computes in JAX
        wherever it is called (cuthbert's ``filter``, imported and jitted as ``offline_filter``, case 348). Only a
        function the file imports (`imported_function`): a framework's own (``jnp.dot``) is known by its name, and a
        local def is read through its body (``def f(x): return x.T @ x`` jitted and also run on NumPy arrays is a
        NumPy baseline)."""
        imported = self.imported_function(call.func)
        if imported is None:
            return False
        if self._transformed is None:
            self._transformed = frozenset(
                q for c in self.program.of_type(ast.Call)
                if self.is_jax_transform(c) and (q := self.imported_function(c.args[0])) is not None  # type: ignore[attr-defined]
            )
        return imported in self._transformed

    def imported_function(self, func: ast.expr) -> str | None:
        """The qualified name of the function, imported from a library the model cannot read, that ``func`` runs: the
        imported name itself, or the one function every value the callee holds is (``filter_alias = filter``,
        ``fns = {"filter": filter}``, ``functools.partial(filter)``). None for a framework's function or the standard
        library's (`NOT_PROJECT_MODULES`), a local def, or anything else."""
        values = [func] if self.names.qualname(func) is not None else self.callee_values(func)
        found: set[str] = set()
        for value in values:
            while isinstance(value, ast.Call) and self.names.qualname(value.func) == "functools.partial" and value.args:
                value = value.args[0]
            qualified = self.names.qualname(value)
            if qualified is None or "." not in qualified or qualified.split(".", 1)[0] in NOT_PROJECT_MODULES:
                return None
            found.add(qualified)
        return found.pop() if len(found) == 1 else None

    @functools.cached_property
    def profiled_imports(self) -> frozenset[str]:
        """The imported functions (`imported_function`) the file runs under JAX's profiler (``with
        jax.profiler.trace(...):``, ``TraceAnnotation``, ``StepTraceAnnotation``): jax-monohull-dynamics traces
        ``j_integrate_many(...)`` (case 405). Profiling a call with JAX's tracer is the file saying the call runs JAX;
        the function's name alone says nothing."""
        found: set[str] = set()
        for block in self.program.of_type(ast.With, ast.AsyncWith):
            if not any(
                isinstance(item.context_expr, ast.Call)
                and (self.names.qualname(item.context_expr.func) or "") in _JAX_PROFILER_CONTEXTS
                for item in block.items  # type: ignore[attr-defined]
            ):
                continue
            for node in ast.walk(block):
                if isinstance(node, ast.Call):
                    imported = self.imported_function(node.func)
                    if imported is not None and not names_a_class(imported):
                        found.add(imported)
        return frozenset(found)

    def _imported_targets(self) -> dict[str, JitSite]:
        """The jit sites of imported library functions, by qualified name (`plain_call_of_jitted`)."""
        if self._jitted_imports is None:
            self._jitted_imports = {}
            for site in self.jit_targets.values():
                target = self.jit_target(site.node) if isinstance(site.node, ast.Call) else None
                imported = self.imported_function(target) if target is not None else None
                if imported is not None:
                    self._jitted_imports.setdefault(imported, site)
        return self._jitted_imports

    def library_call(self, call: ast.Call) -> LibraryCall | None:
        """What ``call`` is, when it is a method of an object a JAX library's class built (`JAX_LIBRARIES`):
        ``mcmc.run(key, y=y)`` of ``mcmc = numpyro.infer.MCMC(NUTS(model), ...)``, ``solver.run(x0)`` of ``solver =
        jaxopt.LBFGS(f)``, ``sine.sample(key, (n,))`` of a NumPyro distribution. The class only holds configuration;
        its methods trace, compile and run the library's JAX programs (NumPyro's ``MCMC.run`` compiles the warm-up and
        sampling loops, case 292). The one reading of such calls: `Kinds` asks it what the call returns, `_effects`
        what it leaves running, LB102 and LB114 both (see `LibraryCall`). The object may be kept on ``self`` by the
        class's ``__init__`` or ``setup`` (``self.solver.run(x0)``, `Bindings.values_at`). Every value the name is
        bound to in the call's scope must be such an object: a name also bound to anything else may be the other
        thing. None for anything else."""
        methods: list[ast.expr] = [call.func]
        if isinstance(call.func, ast.Name):
            # `rollout_fn = manager.single_rollout` (or `manager.batch_rollout` on another branch), then
            # `rollout_fn(keys, params)`: the bound method, called by another name (gymnax-blines, case 388)
            methods = self.bindings.values_at(call.func.id, call.func)
        if not methods or not all(isinstance(m, ast.Attribute) for m in methods):
            return None
        makers: list[ast.expr] = []
        for method in methods:
            found = self._library_makers(method)  # type: ignore[arg-type]
            if not found:
                return None
            makers += found
        runs_program = all(m.attr in LIBRARY_RUNS for m in methods)  # type: ignore[attr-defined]
        return LibraryCall(
            gives_values=not isinstance(self.program.parent(call), ast.Expr),
            runs_program=runs_program,
            waits_as_it_goes=runs_program and all(self._reads_every_step(m) for m in makers),  # type: ignore[arg-type]
        )

    def _library_makers(self, method: ast.Attribute) -> list[ast.expr]:
        """The calls that built the object ``method`` belongs to, when every one is a class of a library written in
        JAX (`JAX_LIBRARIES`, and the `UNJITTED_LIBRARIES` whose objects step environments: gymnax's
        ``RolloutWrapper``); empty otherwise."""
        owner = dotted(method.value)
        if owner is None or owner.count(".") > 1 or ("." in owner and not owner.startswith("self.")):
            return []  # a name, or an attribute set on `self` (`self.solver = jaxopt.LBFGS(f)` in `__init__`)
        makers = self.bindings.values_at(owner, method.value)
        if not makers or not all(
            isinstance(v, ast.Call) and (self.names.qualname(v.func) or "").startswith(_JAX_WRITTEN)
            and names_a_class(self.names.qualname(v.func) or "")
            for v in makers
        ):
            return []
        return makers

    def _reads_every_step(self, maker: ast.Call) -> bool:
        """``maker`` builds a `STEPWISE_PROGRESS` object that runs one chain with its progress bar on."""
        if self.names.qualname(maker.func) not in STEPWISE_PROGRESS:
            return False
        given = {k.arg: k.value for k in maker.keywords if k.arg}
        bar = given.get("progress_bar")
        chains = given.get("num_chains")
        bar_on = bar is None or (isinstance(bar, ast.Constant) and bar.value is True)
        one_chain = chains is None or (isinstance(chains, ast.Constant) and chains.value == 1)
        return bar_on and one_chain

    def compiled_arguments(self, call: ast.Call) -> list[ast.expr]:
        """The functions an eager call of lax control flow compiles (``lax.while_loop(cond, body, x)`` outside any
        jit compiles ``cond`` and ``body`` into one program, cached per function object); none for a call traced
        as part of a jitted function, whose program includes it."""
        positions = _COMPILED_ARGUMENTS.get(self.callee_qualname(call.func) or "")
        if positions is None:
            return []
        scope = enclosing_function(self.program, call)
        while isinstance(scope, ast.Lambda):
            scope = enclosing_function(self.program, scope)
        if scope is not None and scope in self.traced_defs:
            return []
        found = [call.args[i] for i in positions if i < len(call.args)]
        return [e for f in found for e in (f.elts if isinstance(f, (ast.List, ast.Tuple)) else [f])]

    def compiled_anew(self, call: ast.Call) -> list[ast.expr]:
        """The functions an eager call of lax control flow compiles (`compiled_arguments`) that the call jits itself,
        a new jitted object each time it runs (Craftax's ``jax.lax.scan(jax.jit(_vmap_step), ...)``, case 398). JAX
        caches the loop's program per function object, so every run of the statement traces and compiles it again,
        the compile the jit asks for: no earlier run warms it. A fresh lambda there recompiles as well, which the
        corpus reads as LB111 alone (``lax.while_loop(lambda x: x < 0, jf, x)``, case 130)."""
        return [f for f in self.compiled_arguments(call) if isinstance(f, ast.Call) and self.is_jit(f.func)]

    def plain_call_of_jitted(self, call: ast.Call) -> JitSite | None:
        """The jit this file applies elsewhere to the function ``call`` runs without it: ``nuts.step(k, s)`` where
        ``step = jax.jit(nuts.step)``, or ``f(x)`` where ``f_jit = jax.jit(f)``. Applying jit says the function is
        JAX code; called by its own name it runs eagerly, one operation at a time. So does a function imported from
        a library the model cannot read, jitted here and called by its own name (cuthbert's ``offline_filter =
        jax.jit(filter, ...)`` beside a timed ``filter(m0, ...)``, case 348)."""
        if self.jitted_key(call) is not None:
            return None
        qualified = self.names.qualname(call.func)
        if qualified is not None and (qualified.split(".", 1)[0] in NOT_PROJECT_MODULES or "." not in qualified):
            return None  # a framework's function (`jnp.linalg.solve`) is one operation, jitted or not
        name = dotted(call.func)
        if name is not None and name in self.jit_targets:
            return self.jit_targets[name]
        imported = self.imported_function(call.func)  # `filter_alias(...)`, `fns["filter"](...)` of the jitted `filter`
        if imported is not None:
            site = self._imported_targets().get(imported)
            if site is not None:
                return site
        function = self.local_def(call)
        site = self.jitted_defs.get(function) if function is not None else None
        if site is not None and site.direct and site.node not in getattr(function, "decorator_list", ()):
            return site
        return None

    def local_def(self, call: ast.Call) -> FunctionNode | None:
        """The local function a call runs un-jitted: by its name, an alias, a wrapper that runs it op by op
        (``jax.vmap(f)(x)``, ``g = partial(f, 1)``), a method of a local class, or a factory's result."""
        known = self._local_defs
        if known is None:
            return self._find_local_def(call)
        if call not in known:
            known[call] = self._find_local_def(call)
        return known[call]

    def _find_local_def(self, call: ast.Call) -> FunctionNode | None:
        func = call.func
        if isinstance(func, ast.Name) and (func.id not in self.jitted or self._def_in_effect_is_plain(func.id, call)):
            found = self.def_named(func.id, call)
            if found is not None:
                return found
        elif not isinstance(func, (ast.Attribute, ast.Call, ast.Subscript)) or self.jitted_key(call) is not None:
            return None
        elif isinstance(func, ast.Attribute) and (dotted(func) or "") not in self.methods:
            own = self.own_method(func)  # `self.run_forward_model()` in a method of the class that defines it
            return own if isinstance(own, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if isinstance(func, ast.Name) and func.id in self.jitted:
            return None
        found = self.function_of(func)
        if found is None and isinstance(func, ast.Name):
            found = self._called_object(func)
        return found if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)) else None

    def _called_object(self, func: ast.Name) -> ast.AST | None:
        """The ``__call__`` an object of a local class runs when it is called: ``lr(points, labels)`` where ``lr =
        LogisticRegression(10)`` (BrainPy's class objects, case 381), as ``m.apply`` of ``m = Model(...)`` runs
        ``Model.apply`` (`Bindings.method_key`). Every value the name holds there must be such an object, of one
        class."""
        values = self.bindings.values_at(func.id, func)
        keys = {f"{dotted(v.func)}.__call__" if isinstance(v, ast.Call) and dotted(v.func) in self.classes else ""
                for v in values}
        if len(keys) != 1:
            return None
        return self.methods.get(keys.pop())

    def callee(self, call: ast.Call) -> tuple[str, int | None, str | None]:
        """What ``call`` runs, as one comparable value: its callee as written, the local def it runs un-jitted and
        the jitted callable it runs. Two calls written alike run the same function only where the same binding of
        its name reaches them: ``matmul_chain(x)`` under a PyTorch ``def matmul_chain``, then again after a jitted
        ``def matmul_chain`` in the next cell, are two callables."""
        function = self.local_def(call)
        return (ast.unparse(call.func), None if function is None else id(function), self.jitted_key(call))

    def passed_functions(self, call: ast.Call) -> list[ast.expr]:
        """What a call of a parameter runs: ``def bench(df): ... df(x)`` called as ``bench(jax.grad(f))`` gives
        ``[jax.grad(f)]``, the argument at every call site of the enclosing function."""
        return self.argument_values(call.func) or []

    def argument_values(self, func: ast.AST) -> list[ast.expr] | None:
        """The values a parameter is given: ``func`` in ``def bench(func, x): jax.vmap(func)(x)`` called as
        ``bench(loss, xs)`` gives ``[loss]``, the argument at every call site of the enclosing function that the
        file shows; None when ``func`` is no parameter (a list, maybe empty, when it is one). Not to be changed by
        the caller: the answer is kept for the next question about ``func``."""
        known = self._arguments
        if known is None:
            return self._find_argument_values(func)
        if func not in known:
            known[func] = self._find_argument_values(func)
        return known[func]

    def _find_argument_values(self, func: ast.AST) -> list[ast.expr] | None:
        if not isinstance(func, ast.Name):
            return None
        function = enclosing_function(self.program, func)
        # `timeit.timeit(lambda: df(x))` in `bench(df)`; a decorator's wrapper calling the `fun` it closes over
        while isinstance(function, FUNCTION_SCOPES) and self._free_in(function, func.id):
            function = enclosing_function(self.program, function)
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
        if func.id not in positional and func.id not in {a.arg for a in function.args.kwonlyargs}:
            return None
        index = positional.index(func.id) if func.id in positional else None
        values: list[ast.expr] = list(self._parametrized(function, func.id))
        for site in self.call_sites(function):
            outer = self.program.parent(site)
            if index == 0 and isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
                decorated = self._decorated(outer, site)
                if decorated is not None:
                    values.append(decorated)
                continue
            if isinstance(outer, ast.Call) and self.is_benchmark_fixture(outer) and outer.args[0] is site:
                # `benchmark(run, a, xp)` calls `run(a, xp)`
                given = outer.args[1:]
                if index is not None and index < len(given) and not isinstance(given[index], ast.Starred):
                    values.append(given[index])
                values.extend(k.value for k in outer.keywords if k.arg == func.id)
                continue
            if not (isinstance(outer, ast.Call) and outer.func is site):
                continue
            if index is not None and index < len(outer.args) and not isinstance(outer.args[index], ast.Starred):
                values.append(outer.args[index])
            values.extend(k.value for k in outer.keywords if k.arg == func.id)
        return values

    def in_a_branch_never_taken(self, node: ast.AST) -> bool:
        """``node`` sits in the body of ``if flag:`` where ``flag`` is a parameter of the function around it whose
        default is a false constant (``separate=False``, ``None``, ``0``), which the function never rebinds, and which
        every call of the function the file shows leaves at that default (called by name, at least once, with no
        ``*args``/``**kwargs`` and never passed around): that branch does not run in this program. phylojax's
        ``test(fn, g, bls, replicates, separate=False)`` times a 'First evaluation' under ``if separate:``, and
        every caller leaves it off, so the first call of each jitted function is in the timed loop after it
        (case 461)."""
        for branch in self.program.ancestors(node):
            if not (isinstance(branch, ast.If) and isinstance(branch.test, ast.Name)):
                continue
            if not any(a is s for s in branch.body for a in [node, *self.program.ancestors(node)]):
                continue
            if self._left_at_a_false_default(branch.test):
                return True
        return False

    def _left_at_a_false_default(self, flag: ast.Name) -> bool:
        function = enclosing_function(self.program, flag)
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.decorator_list:
            return False
        default = parameter_default(function.args, flag.id)
        if not (isinstance(default, ast.Constant) and not default.value) or flag.id in self.stored_in(function):
            return False
        sites = self.call_sites(function)
        if not sites:
            return False
        for site in sites:
            call = self.program.parent(site)
            if not (isinstance(call, ast.Call) and call.func is site):
                return False  # passed around: who calls it, and how, is not shown
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return False
            if given_argument(call, function.args, flag.id) is not None:
                return False
        return True

    def _parametrized(self, function: ast.AST, name: str) -> list[ast.expr]:
        """The values ``@pytest.mark.parametrize`` gives the parameter ``name`` of a test, when the decorator lists
        them: ``@pytest.mark.parametrize('xp', [np, torch, jnp])`` gives ``[np, torch, jnp]``; with several names
        (``'xp, n'`` over ``[(np, 1), (jnp, 2)]``) the element of each row at the name's place. A list built
        elsewhere, or a row that is no tuple of the right length, gives nothing."""
        found: list[ast.expr] = []
        for decorator in getattr(function, "decorator_list", ()):
            if not (isinstance(decorator, ast.Call) and len(decorator.args) >= 2):
                continue
            if (dotted(decorator.func) or "").removeprefix("pytest.") != "mark.parametrize":
                continue
            names, rows = decorator.args[0], decorator.args[1]
            if isinstance(names, ast.Constant) and isinstance(names.value, str):
                listed = [n.strip() for n in names.value.split(",") if n.strip()]
            elif isinstance(names, (ast.List, ast.Tuple)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in names.elts
            ):
                listed = [e.value for e in names.elts]  # type: ignore[attr-defined]
            else:
                continue
            if name not in listed or not isinstance(rows, (ast.List, ast.Tuple)):
                continue
            place = listed.index(name)
            for row in rows.elts:
                row = _unwrapped_param(row)
                if len(listed) == 1:
                    found.append(row)
                elif isinstance(row, (ast.Tuple, ast.List)) and len(row.elts) == len(listed):
                    found.append(row.elts[place])
        return found

    def is_benchmark_fixture(self, call: ast.Call) -> bool:
        """``benchmark(f, *args)`` or ``benchmark.pedantic(f, ...)`` with pytest-benchmark's fixture: the test asks
        for a ``benchmark`` argument, and the call runs ``f`` with the arguments that follow."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "pedantic":
            func = func.value
        if not (isinstance(func, ast.Name) and func.id == "benchmark" and call.args):
            return False
        scope = enclosing_function(self.program, call)
        args = getattr(scope, "args", None)
        return args is not None and any(a.arg == "benchmark" for a in [*args.args, *args.kwonlyargs])

    def _passed_key(self, value: ast.expr) -> str | None:
        """The jitted callable a function value passed as an argument runs: a jitted one, or a lambda (or a name
        bound to one) whose body calls one (``_T = lambda v: T(v, constants)``, a partial application by hand)."""
        key = self.jitted_key_of(value)
        if key is not None:
            return key
        function = self.function_of(value)
        if isinstance(function, ast.Lambda) and isinstance(function.body, ast.Call):
            return self.jitted_key(function.body)
        return None

    def numpy_generator(self, value: ast.AST, depth: int = 0) -> bool:
        """``value`` is a NumPy random generator (`NUMPY_GENERATORS`), whose methods return NumPy arrays: a name bound
        at that point only to one (``rng = np.random.default_rng(0)``, ``self.rng`` set in ``__init__``), or a
        parameter every call the file shows hands one (``generate_cholesky_factor(rng, dim)``, case 348). The one
        reading of a generator: `Kinds`, the shapes a sampler is given and LB109 ask it."""
        name = dotted(value)
        if name is None or depth > 3:
            return False
        if isinstance(value, ast.Name):
            given = self.parameter_values(value)
            if given is not None:
                return bool(given) and all(self.numpy_generator(v, depth + 1) for v in given)
        bound = self.bindings.values_at(name, value)
        return bool(bound) and all(
            isinstance(v, ast.Call) and self.names.qualname(v.func) in NUMPY_GENERATORS for v in bound
        )

    def parameter_values(self, func: ast.AST) -> list[ast.expr] | None:
        """What a parameter the function never rebinds is given at the call sites the file shows (`argument_values`);
        None when ``func`` is no such parameter. A parameter is a variable of its function: a module-level callable
        of the same name is another value."""
        values = self.argument_values(func)
        if values is None:
            return None
        function = enclosing_function(self.program, func)
        while isinstance(function, ast.Lambda):
            function = enclosing_function(self.program, function)
        return None if func.id in self.stored_in(function) else values  # type: ignore[attr-defined,arg-type]

    def stored_in(self, function: ast.AST) -> frozenset[str]:
        """Every name a ``Name`` node stores to anywhere in ``function`` (its nested functions included): found once
        per function, since each call in it asks whether its callee is a parameter the function rebinds."""
        found = self._stored.get(function)
        if found is None:
            found = self._stored[function] = frozenset(
                n.id for n in self.program.walk(function)  # type: ignore[attr-defined]
                if n.__class__ is ast.Name and n.ctx.__class__ is ast.Store  # type: ignore[attr-defined]
            )
        return found

    def _free_in(self, function: ast.AST, name: str) -> bool:
        """``name`` is no parameter of ``function`` and nothing in its own body binds it: it reads the enclosing
        scope's."""
        if name in parameter_names(function):
            return False
        return isinstance(function, ast.Lambda) or name not in self.stored_in(function)

    def _decorated(self, function: FunctionNode, decorator: ast.AST) -> ast.expr | None:
        """What ``@decorator`` is handed when it decorates ``function``, as the function's name: ``@timed`` over
        ``@jax.jit def f`` is handed jitted ``f``. None when ``decorator`` is not one of its decorators, or when a jit
        above it would trace the plain function it is handed (the name stands for the jitted one)."""
        decorators = function.decorator_list
        k = next((k for k, d in enumerate(decorators) if d is decorator), None)
        if k is None or any(self.is_jit(d) for d in decorators[:k]):
            return None
        return ast.copy_location(ast.Name(id=function.name, ctx=ast.Load()), function)

    def jitted_key_of(self, value: ast.expr) -> str | None:
        """The jitted callable a function value runs: ``f_jit``, ``jax.jit(f)``, or the ``f_jit`` in
        ``jax.grad(f_jit)``."""
        name = dotted(value)
        if name is not None and name in self.jitted:
            if isinstance(value, ast.Name) and self._def_in_effect_is_plain(name, value):
                return None  # read where the plain def of the name is in effect, before a jitted one rebinds it
            if isinstance(value, ast.Name) and not self._jitted_in_scope(value):
                return None  # `jax.vmap(step)(keys)`: this function's `step` a plain `partial`, another's jitted
            return self._alias_root.get(name, name)
        if self.jit_target(value) is not None:
            return ast.unparse(value)
        if isinstance(value, ast.Call) and value.args and self.names.qualname(value.func) in _WRAPPING:
            return self.jitted_key_of(value.args[0])
        if isinstance(value, ast.IfExp):
            return self.jitted_key_of(value.body) or self.jitted_key_of(value.orelse)
        if isinstance(value, ast.Subscript):  # `fns["jax"]`: the jitted callable the container holds
            return next((k for e in self.bindings.elements(value.value, value) if (k := self.jitted_key_of(e))), None)
        if isinstance(value, ast.Attribute) and value.attr in self._jitted_keywords:
            for held in self.held_attribute(value):
                key = self.jitted_key_of(held)
                if key is not None:
                    if key not in self.jitted:  # `apply_fn=jax.jit(model.apply)`: where the jit is, for the evidence
                        self.held_jits.setdefault(key, JitSite(held, f"{value.attr}={ast.unparse(held)}"))
                    return key
        return None

    @functools.cached_property
    def _jitted_keywords(self) -> frozenset[str]:
        """The keywords some call of the file is handed a jitted callable by (``apply_fn=jax.jit(model.apply)``):
        the only attributes `held_attribute` is asked about, so that ``x.mean()`` costs nothing."""
        if not self.jitted and "jit" not in self.program.text:
            return frozenset()
        return frozenset(
            k.arg for k in self.program.of_type(ast.keyword)  # type: ignore[attr-defined]
            if k.arg is not None and (self.jit_target(k.value) is not None or dotted(k.value) in self.jitted)
        )

    def held_attribute(self, attribute: ast.Attribute) -> list[ast.expr]:
        """What ``obj.name`` holds when ``obj`` was built by a call handed ``name=value``: Flax's
        ``state = TrainState.create(apply_fn=jax.jit(model.apply), ...)`` makes ``state.apply_fn`` the jitted
        ``model.apply``. ``obj`` is followed through names, a function's parameters (what its callers pass) and
        local factories (what they return): ``params.apply_fn(...)`` in ``def rollout(env, params)`` called as
        ``rollout(env, create_train_state(model))``."""
        return [
            k.value for built in self._built_objects(attribute.value, 0) if isinstance(built, ast.Call)
            for k in built.keywords if k.arg == attribute.attr
        ]

    def engine_of(self, call: ast.Call) -> str | None:
        """The framework ``call`` computes with by its own engine keyword (`engine_framework`), the string written in
        the call (``backend="jax"``) or bound to the name it hands (``backend = 'numpy'`` once in the file, then
        ``FiniteMPS(tensors, backend=backend)``, case 456): the setting is chosen once and read where it is used.
        None when no keyword picks an engine, or when a name may hold strings that name different engines."""
        for value in [*engine_values(call), *self._unpacked_engine_values(call)]:
            values = self.bindings.values_at(value.id, value) if isinstance(value, ast.Name) else [value]
            found = {engine_framework(v) for v in values}
            if len(found) == 1 and None not in found:
                return found.pop()
        return None

    def _unpacked_engine_values(self, call: ast.Call) -> list[ast.expr]:
        """The engine keywords ``call`` gets through ``**settings``, the name bound where the call reads it to
        ``dict(backend="jax", ...)`` or ``{"backend": "jax", ...}`` (nutpie's ``kwargs = dict(backend="jax",
        gradient_backend="jax")``, then ``nutpie.compile_pymc_model(model, **kwargs)``, case 472)."""
        found: list[ast.expr] = []
        for keyword in call.keywords:
            if keyword.arg is not None or not isinstance(keyword.value, ast.Name):
                continue
            bound = self.bindings.reaching(keyword.value.id, call)
            if isinstance(bound, ast.Call) and self.names.qualname(bound.func) == "builtins.dict" and not bound.args:
                found += engine_values(bound)
            elif isinstance(bound, ast.Dict):
                written = ast.Call(func=bound, args=[], keywords=[
                    ast.keyword(arg=k.value, value=v) for k, v in zip(bound.keys, bound.values)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)
                ])
                found += engine_values(written)
        return found

    def engine_handed(self, call: ast.Call) -> str | None:
        """The framework an object handed to ``call`` computes with, when a call of the same library built it with an
        engine keyword (`built_with_engine`): ``nutpie.sample(compiled)`` of ``compiled =
        nutpie.compile_pymc_model(model, backend="jax")`` samples with JAX (case 472). Another library's function
        handed the object (``print``, ``az.summary``) is not read so."""
        def library_of(func: ast.expr) -> str:  # a module named but not imported in a snippet reads as written
            named = self.names.qualname(func) or (dotted(func) if isinstance(func, ast.Attribute) else None) or ""
            return named.split(".", 1)[0]

        library = library_of(call.func)
        if not library or library == "builtins":
            return None
        for value in [*call.args, *(k.value for k in call.keywords)]:
            for built in self._built_objects(value, 0):
                if not isinstance(built, ast.Call) or library_of(built.func) != library:
                    continue
                engine = self.engine_of(built)
                if engine is not None:
                    return engine
        return None

    def built_with_engine(self, expr: ast.AST) -> str | None:
        """The framework an object computes with when the call that built it picked it by an engine keyword
        (`engine_of`): ``mps = tn.mps.FiniteMPS(tensors, backend='jax')``, then ``mps.position(N - 1)`` runs the
        backend's contractions; through a name, an argument or a local factory as `held_attribute` reads them."""
        engines = {self.engine_of(b) for b in self._built_objects(expr, 0) if isinstance(b, ast.Call)}
        engines.discard(None)
        return engines.pop() if len(engines) == 1 else None

    def _built_objects(self, expr: ast.AST, depth: int) -> list[ast.expr]:
        """The calls an object expression may have been built by (`held_attribute`)."""
        if depth > 4:
            return []
        if isinstance(expr, ast.Call):
            factory = self.def_named(expr.func.id, expr) if isinstance(expr.func, ast.Name) else None
            if factory is None:
                return [expr]
            returns = [
                node.value for node in self.program.walk(factory)
                if isinstance(node, ast.Return) and node.value is not None
                and enclosing_function(self.program, node) is factory
            ]
            return [b for value in returns for b in self._built_objects(value, depth + 1)]
        if isinstance(expr, ast.Name):
            values = self.argument_values(expr)
            if values is None:
                values = self.bindings.values_at(expr.id, expr)
            return [b for value in values for b in self._built_objects(value, depth + 1)]
        return []

    def updates_an_optimiser(self, call: ast.Call) -> bool:
        """``tx.update(grads, opt_state)`` of ``tx`` bound to ``optax.adam(...)`` / ``optax.chain(...)``: the
        optimiser's work on every parameter leaf (Adam's moments, their corrections and the scaling, several
        operations per leaf), not glue around a compiled step. An ``optax.apply_updates`` alone after a jitted update
        is one add per leaf: glue."""
        func = call.func
        return isinstance(func, ast.Attribute) and func.attr == "update" and dotted(func.value) in self.optax_transforms

    def is_jax_transform(self, value: ast.expr) -> bool:
        """``jax.grad(f)``, ``jax.vmap(f)``, ``jax.jit(f)``: a function value that runs JAX."""
        return isinstance(value, ast.Call) and (self.names.qualname(value.func) or "").startswith(
            ("jax.", "equinox.filter_", "flax.nnx.")
        ) and bool(value.args)

    def _find_jitted(self, module: ast.Module) -> None:
        for node in self.program.of_type(ast.Assign):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and self.is_jit(node.value):
                if self.jit_target(node.value) is None:  # partial(jax.jit, ...) or jax.jit(**options)
                    self.jit_wrappers.update(_bound(node))
        for node in self.program.of_type(ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.Call):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for decorator in node.decorator_list:
                    if self.is_jit(decorator):
                        site = JitSite(decorator, f"@{ast.unparse(decorator)}")
                        self.jitted_defs.setdefault(node, site)
                        if not isinstance(self.program.parent(node), ast.ClassDef):
                            self.jitted[node.name] = site
            elif isinstance(node, ast.Assign) and _is_aot_compile(node.value, self):
                self.aot.update(_bound(node))
            if isinstance(node, ast.Call) and (target := self.jit_target(node)) is not None:
                parent = self.program.parent(node)
                bound = _bound(parent) if isinstance(parent, ast.Assign) else []
                label = f"{' = '.join(bound)} = {ast.unparse(node)}" if bound else ast.unparse(node)
                site = JitSite(node, label)
                for name in bound:
                    self.jitted[name] = site
                if (target_name := dotted(target)) is not None:
                    self.jit_targets.setdefault(target_name, site)
                function = self.function_of(target)
                if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.jitted_defs.setdefault(function, site)

    def _propagate_tracing(self) -> None:
        """Functions called (or passed, e.g. to ``lax.scan``) from a traced function are traced too."""
        work = list(self.traced_defs)
        while work:
            function = work.pop()
            site = self.traced_defs[function]
            caller = getattr(function, "name", "<lambda>")
            for node in self.program.walk(function):
                candidates: list[ast.AST] = []
                if isinstance(node, ast.Call):
                    candidates.extend(c for c in [node.func, *node.args] if isinstance(c, ast.Name))
                    candidates.extend(self._flax_methods(node))
                for candidate in candidates:
                    callee = candidate if isinstance(candidate, ast.FunctionDef) else self.function_of(candidate)
                    if isinstance(callee, (ast.FunctionDef, ast.AsyncFunctionDef)) and callee not in self.traced_defs:
                        self.traced_defs[callee] = JitSite(site.node, site.label, direct=False, caller=caller)
                        work.append(callee)

    def _flax_methods(self, call: ast.Call) -> list[ast.FunctionDef]:
        """The methods of a local Flax/Equinox class that ``model.apply(...)`` or ``model(...)`` runs."""
        func = call.func
        owner = func.value if isinstance(func, ast.Attribute) and func.attr in ("apply", "init") else func
        class_name = self.flax_models.get(dotted(owner) or "", "")
        cls = self.classes.get(class_name)
        if cls is None:
            return []
        return [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name in ("__call__", "setup")]

    # --- how often a function runs ----------------------------------------------------------
    def call_sites(self, function: ast.AST) -> list[ast.Name]:
        """Every use of a local function's name (calls, and references that pass it around)."""
        name = getattr(function, "name", None)
        if name is None or function not in self._owner:
            return []
        if self._uses is None:
            self._uses = {}
            for node in self.program.of_type(ast.Name):
                if isinstance(node, ast.Name) and node.id in self._same_name:
                    self._uses.setdefault(node.id, []).append(node)
        uses = self._uses.get(name, [])
        if len(self._same_name[name]) == 1 and self._owner[function] is None:
            return uses
        # a nested def is seen only inside the function that defines it: the same name elsewhere is another value
        return [use for use in uses if self.def_named(name, use) is function]

    def runs_once_through_an_instance(self, function: ast.AST) -> bool:
        """``function`` is a method of a local class that the program runs once, through an instance of that class:
        ``runner = Bench(); runner.bench(x)``, outside any loop and any ``%timeit``, with no other use of an attribute
        of that name anywhere (``self.bench``, another object's ``bench``, the method passed around: then how often it
        runs is not known). `call_sites` sees only calls by the method's bare name."""
        key = next((k for k, f in self.methods.items() if f is function), None)
        if key is None:
            return False
        attribute = key.rsplit(".", 1)[1]
        uses = [n for n in self.program.of_type(ast.Attribute) if n.attr == attribute]  # type: ignore[attr-defined]
        if len(uses) != 1:
            return False
        use = uses[0]
        call = self.program.parent(use)
        return (isinstance(use.value, ast.Name) and use.value.id not in self.classes
                and self.bindings.method_key(use) == key and isinstance(call, ast.Call) and call.func is use
                and enclosing_loop(self.program, use) is None and not self._under_timeit(use))

    def called_repeatedly(self, function: ast.AST | None) -> bool:
        """The function runs more than once: called twice, in a loop, under %timeit, or passed around."""
        if function is None:
            return False
        sites = self.call_sites(function)
        calls = [s for s in sites if isinstance(p := self.program.parent(s), ast.Call) and self._runs_once(p, s)]
        if len(calls) != len(sites):
            return True
        if len(calls) > 1 and not self._exclusive(calls):
            return True
        return any(enclosing_loop(self.program, c) is not None or self._under_timeit(c) for c in calls)

    def differs_per_call(self, function: ast.AST, parameters: set[str]) -> bool:
        """Each call of ``function`` runs once and passes, for one of ``parameters``, a value no other call passes
        (``speedtest(scan_fn, ...)``, ``speedtest(dfx_fn, ...)``): what is built from that parameter is new at
        every call because the call asks for something new, not because it rebuilds the same thing."""
        args = getattr(function, "args", None)
        sites = self.call_sites(function)
        if args is None or len(sites) < 2:
            return False
        positional = [a.arg for a in [*args.posonlyargs, *args.args]]
        for name in parameters:
            if name not in positional:
                continue
            index = positional.index(name)
            passed: list[str] = []
            for site in sites:
                call = self.program.parent(site)
                if not isinstance(call, ast.Call) or call.func is not site or enclosing_loop(self.program, call):
                    return False
                if self.called_repeatedly(enclosing_function(self.program, call)) or self._under_timeit(call):
                    return False
                value = call.args[index] if index < len(call.args) and not any(
                    isinstance(a, ast.Starred) for a in call.args[: index + 1]
                ) else next((k.value for k in call.keywords if k.arg == name), None)
                if not isinstance(value, (ast.Name, ast.Attribute, ast.Constant)):
                    break
                passed.append(ast.dump(value))
            else:
                if len(set(passed)) == len(passed):
                    return True
        return False

    def _exclusive(self, sites: list[ast.AST]) -> bool:
        """At most one of ``sites`` runs: each pair lies on the two sides of one ``if``/``else``."""
        def branches(node: ast.AST) -> dict[int, str]:
            out, child = {}, node
            for ancestor in self.program.ancestors(node):
                if isinstance(ancestor, ast.If):
                    out[id(ancestor)] = "body" if any(child is s for s in ancestor.body) else "else"
                child = ancestor
            return out
        seen = [branches(s) for s in sites]
        return all(
            any(k in b and a[k] != b[k] for k in a) for i, a in enumerate(seen) for b in seen[i + 1:]
        )

    def _runs_once(self, call: ast.Call, site: ast.Name) -> bool:
        """``call`` runs ``site`` once: ``f(...)``, or a program's entry point handed to ``absl.app.run(main)``."""
        if call.func is site:
            return True
        return bool(call.args) and call.args[0] is site and self.names.qualname(call.func) in _ENTRY_POINT_RUNNERS

    def _under_timeit(self, node: ast.AST) -> bool:
        for ancestor in self.program.ancestors(node):
            magic = self.program.magic(ancestor)
            if magic is not None and magic.name == "timeit":
                return True
        return False

    # --- models ------------------------------------------------------------------------------
    def _model_classes(self) -> tuple[set[str], set[str]]:
        torch_classes: set[str] = set()
        flax_classes: set[str] = set()
        for _ in range(3):  # subclasses of local subclasses
            for name, cls in self.classes.items():
                for base in cls.bases:
                    qualified = self.names.qualname(base) or ""
                    local = dotted(base) or ""
                    if qualified.startswith("torch.nn.") or local in torch_classes:
                        torch_classes.add(name)
                    if qualified.startswith(_FLAX_ROOTS) or local in flax_classes:
                        flax_classes.add(name)
        return torch_classes, flax_classes

    def instance_kind(self, expr: ast.AST) -> str | None:
        """``"torch"`` / ``"flax"`` when ``expr`` is (or builds) a PyTorch / Flax-or-Equinox module instance."""
        if isinstance(expr, ast.Subscript):  # `models["resnet"]`: what the container holds, when all agree
            found = {self.instance_kind(e) for e in self.bindings.elements(expr.value, expr)}
            return found.pop() if len(found) == 1 else None
        if isinstance(expr, ast.IfExp):  # `model = compiled if flag else net`: a model either way
            body, orelse = self.instance_kind(expr.body), self.instance_kind(expr.orelse)
            return body if body == orelse or orelse is None else orelse if body is None else None
        name = dotted(expr)
        if name is not None:
            if name in self.torch_models:
                return "torch"
            if name in self.flax_models:
                return "flax"
            return None
        if not isinstance(expr, ast.Call):
            return None
        qualified = self.names.qualname(expr.func) or ""
        last = qualified.rsplit(".", 1)[-1]
        if qualified.startswith("torch.nn.") and last[:1].isupper():
            return "torch"
        if qualified.startswith(("torchvision.models.", "transformers.")) and qualified.count(".") >= 2:
            return "torch" if qualified.startswith("torchvision") else None
        wrapped = expr.args[0] if qualified in _TORCH_WRAPPERS and expr.args else self.names.partial_target(expr)
        if wrapped is not None:
            return self.instance_kind(wrapped)  # torch.compile(model), partial(model, ...): still the model
        if qualified.startswith(_FLAX_ROOTS) and last[:1].isupper():
            return "flax"
        local = dotted(expr.func)
        if local in self.torch_classes:
            return "torch"
        if local in self.flax_classes:
            return "flax"
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in _MODEL_METHODS:
            return self.instance_kind(expr.func.value)
        return None

    def _find_instances(self, module: ast.Module) -> None:
        assignments = [(n, name) for n in self.program.of_type(ast.Assign) for name in _bound(n)]
        called = self._called_names(assignments) if "torch" in self.frameworks else set()
        for _ in range(2):  # `m = Model(); m2 = m.eval()`
            for node, name in assignments:
                kind = self.instance_kind(node.value)
                if kind is None and name in called and self._moved_by_torch(node.value):
                    kind = "torch"  # `model = model.to(device)`, later `model(x)`: a module, whoever built it
                if kind == "torch":
                    self.torch_models.add(name)
                elif kind == "flax":
                    local = dotted(node.value.func) if isinstance(node.value, ast.Call) else dotted(node.value)
                    inherited = self.flax_models.get(local or "", "")
                    self.flax_models[name] = local if local in self.flax_classes else inherited
                qualified = self.names.qualname(node.value.func) if isinstance(node.value, ast.Call) else None
                if qualified is not None and qualified.startswith("optax."):
                    self.optax_transforms.add(name)

    def _called_names(self, assignments: list[tuple[ast.Assign, str]]) -> set[str | None]:
        """The names the file calls: by themselves, or through a name, a container or a ``functools.partial`` that
        holds them and is called (``net_alias = net; net_alias(img)`` calls ``net``)."""
        called = {dotted(c.func) for c in self.program.of_type(ast.Call)}
        called |= {dotted(c.func.value) for c in self.program.of_type(ast.Call) if isinstance(c.func, ast.Subscript)}
        for _ in range(3):  # holders of holders
            held = {dotted(v) for node, name in assignments if name in called for v in self._held(node.value)}
            if held <= called:
                break
            called |= held
        return called

    def _held(self, value: ast.AST) -> list[ast.AST]:
        """The values ``value`` holds to be called later: itself, a partial's function, a display's elements."""
        bound = self.names.partial_target(value)
        if bound is not None:
            return [bound]
        if isinstance(value, ast.Dict):
            return [v for v in value.values if v is not None]
        if isinstance(value, (ast.List, ast.Tuple)):
            return list(value.elts)
        return [value]

    def _moved_by_torch(self, value: ast.AST) -> bool:
        """``value`` moves an object to a device with torch's methods: ``.cuda()``, or ``.to(d)`` where ``d`` is a
        device (``"cuda"``, ``torch.device(...)``, a name bound to one, ``device=``). A name bound so and then
        called is a torch module whatever made it (``cfg.get_model()``, a project class): a tensor is not called,
        and ``.to(...)`` of a unit or a dtype names no device."""
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
            return False
        if value.func.attr == "cuda":
            return True
        if value.func.attr != "to":
            return False
        target = value.args[0] if value.args else next((k.value for k in value.keywords if k.arg == "device"), None)
        return target is not None and self._names_a_device(target, value)

    def _names_a_device(self, target: ast.AST, at: ast.AST) -> bool:
        """``target`` is some device, as ``.to(target)`` is read to tell a module's move from a dtype's cast: a device
        string of any kind (``"mps"``, ``"xpu"`` too), any ``torch.device(...)``, or a name some binding of which is
        one. `Devices.named` answers another question, which device (CUDA or the CPU, through the one binding that
        reaches the use, or the one a function is handed); it is built on these facts, after them."""
        if isinstance(target, ast.Constant) and isinstance(target.value, str):
            return target.value.split(":")[0] in ("cuda", "cpu", "mps", "xpu")
        if isinstance(target, ast.Call):
            return self.names.qualname(target.func) == "torch.device"
        if isinstance(target, ast.Name):
            bound = self.bindings.values_at(target.id, at)
            return any(not isinstance(v, ast.Name) and self._names_a_device(v, at) for v in bound)
        return False

    def is_torch_model_call(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "forward":
            func = func.value
        return self.instance_kind(func) == "torch" or (
            isinstance(func, ast.Call) and self.instance_kind(func) == "torch"
        )

    def runs_on_xla(self, call: ast.Call) -> bool:
        """``xm.mark_step()``, ``torch_xla.sync()``, ``xm.wait_device_ops()``: PyTorch/XLA runs what it traced, or
        waits for the device (`XLA_DEVICE_CALLS`)."""
        return self.names.qualname(call.func) in XLA_DEVICE_CALLS

    def is_xla_device(self, value: ast.AST) -> bool:
        """``xm.xla_device()``, ``torch_xla.device()``, ``"xla"``, ``torch.device("xla:0")``, or a name whose binding
        that reaches ``value`` is one of these."""
        if isinstance(value, ast.Name):
            bound = self.bindings.reaching(value.id, value)
            return bound is not None and not isinstance(bound, ast.Name) and self.is_xla_device(bound)
        if isinstance(value, ast.Call):
            if self.names.qualname(value.func) in XLA_DEVICES:
                return True
            if self.names.qualname(value.func) == "torch.device" and value.args:
                value = value.args[0]
        return isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.split(":")[0] == "xla"

    def module_forward(self, call: ast.Call) -> ast.AST | None:
        """The ``forward`` that ``call`` runs when it calls an instance of a local ``torch.nn.Module`` subclass
        (``net = Net().cuda(); net(x)``): torch's ``__call__`` runs it, so the method runs here as the call does."""
        value: ast.AST | None = call.func
        for _ in range(8):
            if isinstance(value, ast.Name):  # `net = Net(); net = net.cuda()`: what the name was made from
                made = [b for b in self.bindings.values_at(value.id, value) if _peeled(b) != value.id]
                value = made[0] if len(made) == 1 else None
                continue
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr in _MODEL_METHODS:
                value = value.func.value
                continue
            break
        local = dotted(value.func) if isinstance(value, ast.Call) else None
        seen: set[str] = set()
        while local in self.torch_classes and local not in seen:
            seen.add(local)
            cls = self.classes[local]
            forward = next(
                (n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "forward"),
                None,
            )
            if forward is not None:
                return forward
            local = next((dotted(b) for b in cls.bases if dotted(b) in self.torch_classes), None)
        return None

    def is_flax_call(self, call: ast.Call) -> bool:
        """``model.apply(...)``, ``model.init(...)``, ``nn.GRUCell()(...)`` or an nnx/Equinox ``model(x)``."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("apply", "init"):
            return self.instance_kind(func.value) == "flax"
        return self.instance_kind(func) == "flax"

    @functools.cached_property
    def keras_on_jax(self) -> bool:
        """The file runs Keras on JAX, chosen once for the process: it sets ``KERAS_BACKEND`` to ``"jax"``
        (``os.environ["KERAS_BACKEND"] = "jax"``, ``os.environ.setdefault(...)``, ``os.putenv``) or calls
        ``keras.config.set_backend("jax")``, or it compares the backend it reads back (``os.environ.get("KERAS_BACKEND")``,
        ``keras.config.backend()``, ``keras.backend.backend()``, or a name bound to one) with ``"jax"``: a file written
        for several backends (``if BACKEND == "jax": jax.effects_barrier()``, case 453) runs on JAX on that path, the
        one the doctor reads. A file that names only another backend (``keras.backend.backend() == "torch"``) or none
        says nothing of JAX."""
        if "keras" not in {(self.names.qualname(n) or "").split(".", 1)[0] for n in self.program.of_type(ast.Name)}:
            return False
        for node in self.program.of_type(ast.Assign, ast.Call, ast.Compare):
            if isinstance(node, ast.Assign) and _is_jax_string(node.value) and any(
                isinstance(t, ast.Subscript) and self.names.qualname(t.value) == "os.environ"
                and _is_string(t.slice, _KERAS_BACKEND_VARIABLE) for t in node.targets
            ):
                return True
            if isinstance(node, ast.Call):
                qualified = self.names.qualname(node.func)
                if qualified == "keras.config.set_backend" and node.args and _is_jax_string(node.args[0]):
                    return True
                if qualified in ("os.environ.setdefault", "os.putenv") and len(node.args) == 2 \
                        and _is_string(node.args[0], _KERAS_BACKEND_VARIABLE) and _is_jax_string(node.args[1]):
                    return True
            if isinstance(node, ast.Compare) and len(node.comparators) == 1:
                sides = [node.left, node.comparators[0]]
                if any(_is_jax_string(v) or (isinstance(v, (ast.Tuple, ast.List, ast.Set))
                                             and any(_is_jax_string(e) for e in v.elts)) for v in sides) \
                        and any(self._reads_keras_backend(v) for v in sides):
                    return True
        return False

    def _reads_keras_backend(self, value: ast.AST) -> bool:
        """``value`` is the Keras backend read back: ``keras.config.backend()``, ``os.environ.get("KERAS_BACKEND",
        ...)``, ``os.getenv("KERAS_BACKEND")``, ``os.environ["KERAS_BACKEND"]``, or a name bound to one of them."""
        if isinstance(value, ast.Name):
            return any(self._reads_keras_backend(v) for v in self.bindings.values_at(value.id, value)
                       if not isinstance(v, ast.Name))
        if isinstance(value, ast.Subscript):
            return self.names.qualname(value.value) == "os.environ" and _is_string(value.slice, _KERAS_BACKEND_VARIABLE)
        if not isinstance(value, ast.Call):
            return False
        qualified = self.names.qualname(value.func)
        if qualified in _KERAS_BACKEND_READS:
            return True
        return qualified in _ENVIRONMENT_READS and bool(value.args) and _is_string(value.args[0], _KERAS_BACKEND_VARIABLE)

    def keras_model_method(self, call: ast.Call) -> str | None:
        """When the file runs Keras on JAX (`keras_on_jax`) and ``call`` runs a Keras model built in the file
        (`_KERAS_MODEL_BUILDERS`, a model of `_KERAS_MODEL_ROOTS`, or a local subclass of ``keras.Model``):
        ``"__call__"`` for ``llm(ids, training=False)``, which returns the backend's arrays as JAX dispatched them,
        or the method's name (``"predict"``, ``"fit"``), which run the model and return host values. None
        otherwise."""
        if not self.keras_on_jax:
            return None
        func = call.func
        method = "__call__"
        if isinstance(func, ast.Attribute) and self._keras_model(func.value):
            method, func = func.attr, func.value
        if method == "__call__" and not self._keras_model(func):
            return None
        return method if method[:1] != "_" or method == "__call__" else None

    def _keras_model(self, expr: ast.AST) -> bool:
        """``expr`` holds a Keras model (through a name, an argument or a local factory, as `_built_objects` reads)."""
        return any(
            isinstance(b, ast.Call) and self._builds_keras_model(b) for b in self._built_objects(expr, 0)
        )

    def _builds_keras_model(self, call: ast.Call) -> bool:
        qualified = self.names.qualname(call.func) or ""
        if qualified in _KERAS_MODEL_BUILDERS:
            return True
        if qualified.startswith(_KERAS_MODEL_ROOTS):
            last = qualified.rsplit(".", 1)[-1]
            return last[:1].isupper() or last == "from_preset"
        name = call.func.id if isinstance(call.func, ast.Name) else None
        return any(
            isinstance(c, ast.ClassDef) and c.name == name
            and any(self.names.qualname(base) in ("keras.Model", "keras.models.Model") for base in c.bases)
            for c in self.program.of_type(ast.ClassDef)
        )

    # --- file-wide settings ------------------------------------------------------------------
    @staticmethod
    def _mentions_x64(program: Program) -> bool:
        for node in program.of_type(ast.Constant, ast.Attribute, ast.Name):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "enable_x64" in node.value.lower():
                return True
            if isinstance(node, ast.Attribute) and node.attr in ("jax_enable_x64", "enable_x64"):
                return True
            if isinstance(node, ast.Name) and node.id in ("jax_enable_x64", "enable_x64"):
                return True
        return False

    @staticmethod
    def _mentions_cuda(program: Program, program_names: Names) -> bool:
        for node in program.of_type(ast.Constant, ast.Call):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("cuda"):
                return True
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cuda":
                return True
            if isinstance(node, ast.Call) and (program_names.qualname(node.func) or "").startswith("torch.cuda."):
                return True  # torch.cuda.synchronize(), torch.cuda.Event(...)
        return False


    @staticmethod
    def _profiles_cuda(program: Program, program_names: Names) -> bool:
        """The file profiles torch work on CUDA: ``torch.profiler.profile(...)`` left to its default activities (CPU
        and, where there is one, CUDA: triton-lang/kernels' ``Profiler``, case 335) or given ``ProfilerActivity.CUDA``.
        A profile of the CPU alone (``activities=[ProfilerActivity.CPU]``) is no GPU's; the older
        ``torch.autograd.profiler.profile`` profiles CUDA when given ``use_cuda``."""
        for node in program.of_type(ast.Call):
            qualified = program_names.qualname(node.func)
            if qualified == "torch.autograd.profiler.profile":  # the older profiler's `use_cuda=...`
                if any(k.arg == "use_cuda" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                       for k in node.keywords):
                    return True
                continue
            if qualified not in _TORCH_PROFILERS:
                continue
            activities = next((k.value for k in node.keywords if k.arg == "activities"), None)
            if activities is None or any(
                isinstance(n, ast.Attribute) and n.attr == "CUDA" for n in ast.walk(activities)
            ):
                return True
        return False


# torch's profiler: its activities default to the CPU and, when available, CUDA
_TORCH_PROFILERS = frozenset({"torch.profiler.profile", "torch.profiler.profiler.profile"})


def _peeled(value: ast.AST) -> str | None:
    """The name a chain of module methods is applied to: ``net.to(device).eval()`` -> ``net``."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MODEL_METHODS:
        value = value.func.value
    return value.id if isinstance(value, ast.Name) else None


def _bound(assignment: ast.AST) -> list[str]:
    """The plain names / attribute paths an assignment binds: ``f = g = jax.jit(h)`` binds f and g."""
    targets = getattr(assignment, "targets", [])
    return [name for target in targets if (name := dotted(target)) is not None]


def _is_aot_compile(value: ast.AST, facts: Facts) -> bool:
    """``jax.jit(f).lower(x).compile()``: compiled ahead of time, so its first call does not compile. What is
    lowered may be out of sight (``record.programs[op].lower(request).compile()``, a jitted function kept in a
    container): ``.lower(args)`` followed by ``.compile()`` is JAX's ahead-of-time API (``str.lower`` takes no
    arguments), and what it returns is a compiled executable."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "compile"):
        return False
    inner = value.func.value
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "lower" \
            and (inner.args or inner.keywords):
        return True
    while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
        if facts.jit_target(inner.func.value) is not None or dotted(inner.func.value) in facts.jitted:
            return True
        inner = inner.func.value
    return False


def _in_other_branches(program: Program, one: ast.AST, other: ast.AST) -> bool:
    """``one`` and ``other`` sit in different branches of one ``if`` statement (its body and its ``else``/``elif``):
    at most one of them runs."""
    above = {id(a): a for a in program.ancestors(other)}
    child = one
    for ancestor in program.ancestors(one):
        if id(ancestor) in above:
            if not isinstance(ancestor, ast.If):
                return False
            in_body = any(child is s for s in ancestor.body)
            other_child = other
            for a in program.ancestors(other):
                if a is ancestor:
                    break
                other_child = a
            return in_body != any(other_child is s for s in ancestor.body)
        child = ancestor
    return False


def _in_effect(defs: list[FunctionNode], at: ast.AST) -> FunctionNode:
    """Of several module-level defs of one name, the one bound when module-level code at ``at`` runs: the last
    defined before it (the last of all when none is: a use before any def of the name is an error anyway)."""
    where = (getattr(at, "lineno", 0), getattr(at, "col_offset", 0))
    before = [d for d in defs if (d.lineno, d.col_offset) < where]
    return before[-1] if before else defs[-1]


def _unwrapped_param(row: ast.expr) -> ast.expr:
    """``pytest.param(np, id="numpy")`` is the row ``np``; ``pytest.param(np, 1)`` is the row ``(np, 1)`` (a tuple
    made here, whose elements are the program's nodes)."""
    if not (isinstance(row, ast.Call) and (dotted(row.func) or "").removeprefix("pytest.") == "param" and row.args):
        return row
    if len(row.args) == 1:
        return row.args[0]
    return ast.copy_location(ast.Tuple(elts=list(row.args), ctx=ast.Load()), row)


def _is_string(node: ast.AST, text: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == text


def _is_jax_string(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip().lower() == "jax"
