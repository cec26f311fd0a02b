"""What a name in the script refers to, through imports and aliases.

``import jax.numpy as jnp`` makes ``jnp.dot`` resolve to ``"jax.numpy.dot"``; ``from jax import jit``
and ``jit = jax.jit`` make ``jit`` resolve to ``"jax.jit"``. The table is flow-insensitive (one
meaning per name for the whole file), which is what scripts and notebooks do in practice.
"""

from __future__ import annotations

import ast
import builtins
import sys
from collections.abc import Iterable

_BUILTINS = frozenset(dir(builtins))
_PARTIAL = frozenset({"functools.partial"})
_IMPORTERS = frozenset({"pytest.importorskip", "importlib.import_module"})
# Names a package re-exported from elsewhere, read as what they are: old JAX had `jax.partial`, functools' own
# (`@jax.partial(jit, static_argnums=1)` is a jit decorator). Whether the installed package still has the name is
# LB113's question, not this table's.
_REEXPORTED = {"jax.partial": "functools.partial"}
# Modules a package later removed whose names it still has elsewhere: old JAX's `jax.api` was the module `jax`
# re-exported (`from jax.api import jit` is `jax.jit`).
_MOVED_MODULES = {"jax.api.": "jax."}


def _reexported(name: str) -> str:
    """``name`` read as what it is (`_REEXPORTED`, `_MOVED_MODULES`)."""
    found = _REEXPORTED.get(name)
    if found is not None:
        return found
    for old, new in _MOVED_MODULES.items():
        if name.startswith(old):
            return new + name[len(old):]
    return name
# Snippets posted without their imports use the names everyone uses; a name the file never binds
# is taken to mean what it conventionally means. Only names that mean one thing across the field (the frameworks'
# own aliases): a library's module named with a common word (Waymax's `datatypes`) would read every snippet that
# uses the word as that library, so an unimported one stays unknown (review23; case 352's snippet has no imports).
CONVENTIONAL = {
    "jax": "jax", "jnp": "jax.numpy", "lax": "jax.lax", "jit": "jax.jit", "vmap": "jax.vmap", "grad": "jax.grad",
    "np": "numpy", "onp": "numpy", "torch": "torch", "time": "time", "timeit": "timeit", "optax": "optax",
    "xm": "torch_xla.core.xla_model",  # PyTorch/XLA's documented alias
    # `@partial(jax.jit, static_argnums=0)` in a snippet whose imports were left out (flax#912, case 376): JAX's
    # documented idiom, and the only `partial` a snippet calls that way
    "partial": "functools.partial",
}
# Platforms as strings name them (`jax.devices("gpu")`, `torch.device("cuda:0")`): a setting a benchmark is run under,
# one figure per platform.
DEVICE_NAMES = frozenset({"cpu", "gpu", "tpu", "cuda", "mps", "xla", "metal", "rocm"})
# Libraries written in JAX: what their functions return is computed by JAX (arrays, or pytrees and objects
# holding them: `diffrax.diffeqsolve(...)`, `blackjax.nuts(...)`, whose `.step` computes in JAX). Their classes
# (capitalised) build configuration; Flax, Equinox and optax have models of their own (`_facts`).
JAX_LIBRARIES = (
    "diffrax.", "optimistix.", "lineax.", "blackjax.", "numpyro.", "jaxopt.", "distrax.", "dynamiqs.", "interpax.",
    "netket.", "mpax.", "waymax.", "brainpy.",
)
# JAX libraries whose objects' methods run as they are called: their documentation asks the user to jit them
# (`jax.jit(env.step)` for brax, gymnax, jumanji and pgx environments; blackjax's `kernel.step`). Others jit their
# entry points themselves (jaxopt's `run` jits its loop, diffrax and optimistix their solves). Their module functions
# that step a state run the same way (Waymax's `datatypes.update_state_by_log(state, num_steps=1)`, waymax#14: 'We
# usually run our code with jit').
UNJITTED_LIBRARIES = ("brax.", "gymnax.", "jumanji.", "pgx.", "blackjax.", "waymax.")
# The methods of a JAX library's object that run its whole program and return its results as JAX arrays, not waited
# for (`mcmc.run(key, X, Y)` of NumPyro's `MCMC`, `solver.run(x0)` of jaxopt's, `svi.run(key, 1000)`): a clock read
# right after one stops before the work is done (numpyro#440, case 351). Read with `STEPWISE_PROGRESS` through
# `_facts.Facts.library_call`, the one reading of a JAX library object's methods (what they return, what they leave).
LIBRARY_RUNS = frozenset({"run", "sample", "warmup"})
# Classes whose `run` reads every step back on the host to show a progress bar, when one chain runs and the bar is
# left on (NumPyro's `MCMC` and `SVI`): the run waits as it goes. Parallel chains (`num_chains=...`) or
# `progress_bar=False` run the loop on the device, unwaited (numpyro#440: the single-chain time was right).
STEPWISE_PROGRESS = frozenset({"numpyro.infer.MCMC", "numpyro.infer.mcmc.MCMC", "numpyro.infer.SVI",
                               "numpyro.infer.svi.SVI"})
# Makers of objects whose `update` runs one training step of JAX work as it is called, when a loop calls it by hand:
# jaxopt's stochastic solvers, which jaxopt's examples step by hand over data batches (jaxopt#101: the fix is
# `jax.jit(solver.update)`). jaxopt's full-batch solvers run through `run`; a hand loop of their `update` reads each
# iterate (its benchmarks' error curves), not a training loop. An optax `update` is counted as operations of the loop.
UNJITTED_UPDATES = ("jaxopt.OptaxSolver", "jaxopt.PolyakSGD", "jaxopt.ArmijoSGD")
# Top-level modules that are not the user's own project: the standard library's a benchmark uses, the frameworks and
# the data and plotting tools. A call into any other module a file imports from is the project's own code, whose body
# the file does not show (gpt-jax's `train_step`, a project's `synchronize_torch(device)`): rules that read such a
# call by what it is handed or by its name ask here first, and judge these modules' functions by what they are.
NOT_PROJECT_MODULES = frozenset({
    "builtins", "time", "timeit", "math", "random", "itertools", "functools", "os", "sys", "logging", "pickle", "json",
    "threading", "multiprocessing", "asyncio", "subprocess", "tqdm", "pandas", "scipy", "sklearn", "matplotlib",
    "tensorflow", "numpy", "jax", "torch", "torch_xla", "warp",
})
# `random` alone is Python's module, unless it is used like jax.random.
_JAX_RANDOM_ONLY = frozenset({"PRNGKey", "key", "split", "fold_in", "key_data"})


class Names:
    """Resolves names and attribute chains to dotted qualified names (``"jax.numpy.float64"``)."""

    BINDING_NODES: tuple[type, ...] = (
        ast.Import, ast.ImportFrom, ast.Assign, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.AugAssign,
        ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.arg,
    )
    """The node types that bind names: pass only these to the constructor to save time."""

    def __init__(self, nodes: Iterable[ast.AST]) -> None:
        self._aliases: dict[str, str] = {}
        self._bound: set[str] = set()
        # names imported as more than one module (`import numpy as np` ... `import jax.numpy as np`): which one a
        # use means depends on when it runs (`Bindings.module_in_effect`)
        self.several: frozenset[str] = frozenset()
        self._attributes: dict[ast.AST, str | None] = {}  # qualname of each attribute node asked about, while the
        # aliases stay as they are (emptied when they change)
        assignments: list[ast.Assign] = []
        imported: dict[str, set[str]] = {}
        self._modules: set[str] = set()  # every module path an import names in full (`pymc.sampling_jax`)
        for node in nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self._modules.add(alias.name)
                    if alias.asname:
                        imported.setdefault(alias.asname, set()).add(alias.name)
                    else:
                        root = alias.name.split(".")[0]
                        imported.setdefault(root, set()).add(root)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    if node.level == 0 and node.module:
                        self._modules.add(f"{node.module}.{alias.name}")
                        imported.setdefault(alias.asname or alias.name, set()).add(f"{node.module}.{alias.name}")
                    else:  # a relative import: local to the project, nothing we know about
                        self._bound.add(alias.asname or alias.name)
            elif isinstance(node, ast.Assign):
                assignments.append(node)
                for target in node.targets:
                    self._bound.update(_target_names(target))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._bound.add(node.name)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
                self._bound.update(_target_names(node.target))
            elif isinstance(node, ast.arg):
                self._bound.add(node.arg)
        for name, modules in imported.items():
            if len(_canonical(modules)) == 1:
                module = modules.pop()
                self._aliases[name] = _reexported(module)
            else:  # `import numpy as np` ... `import jax.numpy as np`: which one a use means depends on when it runs
                self._bound.add(name)
                self.several |= {name}
        # `jit = jax.jit`, `normal = np.random.normal`; `static_jit = partial(jax.jit, ...)` stays a jit.
        for _ in range(3):  # aliases of aliases
            changed = False
            for node in assignments:
                if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                    continue
                target = node.targets[0].id
                if target in self._aliases:
                    continue
                resolved = self._alias_value(node.value)
                if resolved is not None:
                    self._aliases[target] = resolved
                    self._attributes.clear()
                    changed = True
            if not changed:
                break

    def assume_conventional_imports(self, loads: Iterable[ast.AST]) -> None:
        """Bind the unbound conventional names used in ``loads`` (``jnp.dot`` with no import: jax.numpy)."""
        for node in loads:
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                name = node.value.id
                if name == "random" and node.attr in _JAX_RANDOM_ONLY and self._unbound(name):
                    self._aliases[name] = "jax.random"
            elif isinstance(node, ast.Name) and node.id in CONVENTIONAL and self._unbound(node.id):
                self._aliases[node.id] = CONVENTIONAL[node.id]
        self._attributes.clear()

    def _unbound(self, name: str) -> bool:
        return name not in self._aliases and name not in self._bound

    def _alias_value(self, value: ast.expr) -> str | None:
        if isinstance(value, (ast.Name, ast.Attribute)):
            resolved = self.qualname(value)
            return resolved if resolved and not resolved.startswith("builtins.") else None
        if isinstance(value, ast.Call) and value.args:
            bound = self.partial_target(value)
            if bound is not None:
                inner = self.qualname(bound)
                # a framework's function with arguments bound is that function: `partial(torch.det)`,
                # `partial(jax.jit, ...)`
                return inner if inner and inner.startswith(("jax.", "torch.", "numpy.")) else None
            module = value.args[0]  # the callee is resolved last: most calls pass no module name
            if isinstance(module, ast.Constant) and isinstance(module.value, str) and (
                self.qualname(value.func) in _IMPORTERS
            ):
                return module.value  # jax = pytest.importorskip("jax")
        return None

    def partial_target(self, node: ast.AST) -> ast.expr | None:
        """The function a partial application binds: ``f`` for ``functools.partial(f, x)`` (``partial(f)``, old
        JAX's ``jax.partial(f, x)``); None when ``node`` is no such call. Calling the partial runs ``f`` with the
        bound arguments first (`Facts.jit_target` answers the same question of a jit)."""
        if isinstance(node, ast.Call) and node.args and self.qualname(node.func) in _PARTIAL:
            return node.args[0]
        return None

    def qualname(self, node: ast.AST) -> str | None:
        """``"jax.numpy.dot"`` for ``jnp.dot``; ``"builtins.float"`` for an unshadowed builtin; else None."""
        cls = node.__class__
        if cls is ast.Name:
            name = node.id  # type: ignore[attr-defined]
            found = self._aliases.get(name)
            if found is not None:
                return found
            if name in _BUILTINS and name not in self._bound:
                return f"builtins.{name}"
            return None
        if cls is ast.Attribute:
            # The checks ask about the same attribute chains many times (a long file: ~7 questions a line).
            memo = self._attributes
            if node in memo:
                return memo[node]
            base = self.qualname(node.value)  # type: ignore[attr-defined]
            found = sys.intern(f"{base}.{node.attr}") if base and not base.startswith("builtins.") else None  # type: ignore
            found = sys.intern(_reexported(found)) if found is not None else None
            memo[node] = found  # one string per name, not one per node asked about
            return found
        return None

    def free_for(self, name: str, module: str) -> bool:
        """Whether ``import module`` may bind ``name``: nothing else is called that (a variable, a def,
        another module)."""
        return name not in self._bound and self._aliases.get(name, module) == module

    def imports_root(self, root: str) -> bool:
        """Whether the file imports ``root`` or something under it."""
        return any(value == root or value.startswith(root + ".") for value in self._aliases.values())

    def imports_jax_backend(self) -> bool:
        """Whether the file imports a module whose name says it is a library's JAX backend (``pymc.sampling_jax``,
        ``from pymc import sampling_jax``, ``jax_md``): a library the model does not list, whose own module names
        say its work runs in JAX."""
        return any(_says_jax_backend(module) for module in self._modules)


def names_a_class(qualified: str) -> bool:
    """A dotted name whose last part is capitalised (``models.MLP``, ``jax_galsim.Gaussian``): a class by Python's
    convention, whose call builds an object rather than doing work of its own."""
    return qualified.rsplit(".", 1)[-1][:1].isupper()


def _says_jax_backend(module: str) -> bool:
    """A module path with a part named as a library's JAX backend: ``pymc.sampling_jax``, ``jax_md``."""
    return any(part.startswith("jax_") or part.endswith("_jax") for part in module.split("."))


def in_jax_backend(qualified: str | None) -> bool:
    """A function of a module whose name says it is a library's JAX backend: ``pymc.sampling_jax.sample_blackjax_nuts``,
    ``jax_cosmo.power.linear_matter_power``. The module path is the evidence, not the function's own name
    (``j_step`` says nothing), and a capitalised name builds an object (``jax_galsim.Gaussian``), no work of its own."""
    if not qualified or "." not in qualified:
        return False
    module = qualified.rsplit(".", 1)[0]
    if names_a_class(qualified) or module.split(".", 1)[0] in ("jax", "jaxlib"):
        return False
    return _says_jax_backend(module)


# A keyword that picks where a library's call computes (`pm.sample(nuts_sampler="numpyro")`, `backend="jax"`), by the
# words of its name: its string value then names the engine the call runs.
_ENGINE_KEYWORDS = ("backend", "sampler", "engine")


def engine_values(call: ast.Call) -> list[ast.expr]:
    """The values of ``call``'s own keywords that pick the engine it computes with (`_ENGINE_KEYWORDS`):
    ``"numpyro"`` of ``pm.sample(nuts_sampler="numpyro")``, ``backend`` of ``FiniteMPS(t, backend=backend)``."""
    return [
        k.value for k in call.keywords
        if k.arg is not None and any(word in k.arg.lower() for word in _ENGINE_KEYWORDS)
    ]


# The engine strings that name a framework the doctor reads (`engine_framework`), beside JAX's own libraries.
_ENGINE_FRAMEWORKS = {"numpy": "numpy", "torch": "torch", "pytorch": "torch"}


def engine_framework(value: ast.AST) -> str | None:
    """The framework an engine keyword's string picks: ``"jax"`` for JAX or a library written in JAX
    (`JAX_LIBRARIES`: ``"numpyro"``, ``"blackjax"``), ``"numpy"``, ``"torch"`` (``"pytorch"``); None for a value
    that is no string or names anything else (``"pymc"``, ``"nutpie"``, ``"tensorflow"``)."""
    if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
        return None
    word = value.value.strip().lower()
    if word in {"jax", *(library.rstrip(".") for library in JAX_LIBRARIES)}:
        return "jax"
    return _ENGINE_FRAMEWORKS.get(word)


def _canonical(modules: set[str]) -> set[str]:
    """``jax.numpy`` and ``jax.numpy`` imported two ways are one module; try/except fallbacks are not."""
    return {m.removeprefix("jax._src.") for m in modules}


def _target_names(target: ast.AST) -> list[str]:
    """Every name written in an assignment target, read or bound: ``x`` and ``i`` of ``x[i] = ...``, ``a`` of ``a.b
    = ...``. More than the names the target binds (`_syntax.bound_names`, which this module sits below), on
    purpose: the table gives a name one meaning for the whole file, so a name the file stores into in any way
    (``np[0] = ...`` in a snippet with no import) is the file's own: not the conventional module of that name
    (`Names.assume_conventional_imports`), not a builtin, and not free for an import a fix adds (`Names.free_for`)."""
    if isinstance(target, ast.Name):
        return [target.id]
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def dotted(node: ast.AST) -> str | None:
    """The source path of a plain name or attribute chain (``"self.model"``), else None."""
    cls = node.__class__
    if cls is ast.Name:
        return node.id  # type: ignore[attr-defined]
    if cls is not ast.Attribute:
        return None
    parts: list[str] = []
    while node.__class__ is ast.Attribute:
        parts.append(node.attr)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if node.__class__ is not ast.Name:
        return None
    parts.append(node.id)  # type: ignore[attr-defined]
    return ".".join(reversed(parts))
