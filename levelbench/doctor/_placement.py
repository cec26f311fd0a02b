"""Where code runs: here, as this file runs, or wherever the callers of a library function put it.

Module-level code (a script's statements, its ``__main__`` block, a notebook's cells), test functions
(pytest and absltest run them as they are) and a function whose name says it benchmarks run *here*,
and so does every local function they call or hand on, transitively. Any other function is a library
function: who calls it, jits it, vmaps it, and with which sizes, is decided by code the doctor does
not see. A performance rule reports on a library function only what holds whatever its callers do.

    def step(x, n):                 # a library function: its callers may jit it, with any n
        for _ in range(n): ...      # n is the caller's: not evidence of an unrolled loop

    if __name__ == "__main__":
        step(x, 10_000)             # now `step` runs here, with n known
"""

from __future__ import annotations

import ast
import os

from ._facts import _WRAPPING, Facts
from ._program import Program
from ._syntax import SCOPES, enclosing_function, walk_code

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
_DEFINING = (ast.Assign, ast.AnnAssign, ast.Return)
_TEST_SETUP = frozenset({"setUp", "setUpClass", "setup_method", "setup_class"})


def functions_run_here(facts: Facts, benchmarks: set[ast.AST]) -> frozenset[ast.AST]:
    """The defs that run here: tests, top-level ``benchmarks`` (functions that time themselves and say they
    benchmark), and every local function reached from them or from module-level code by a call or by
    being handed to one. Wrapping a function in a transform to define a name (``g = jax.jit(f)``) does
    not run it; calling the name does."""
    program = facts.program
    defined = _transform_aliases(facts)
    here: set[ast.AST] = set()
    work: list[ast.AST] = []

    def add(function: ast.AST | None) -> None:
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and function not in here:
            here.add(function)
            work.append(function)
            for wrapper in facts.decorator_wrappers(function):  # `@timed def f`: calling f runs timed's wrapper
                add(wrapper)

    timing: set[ast.AST] = set()  # an asv suite's methods, and the methods of its class they run through `self`
    for function in program.of_type(ast.FunctionDef, ast.AsyncFunctionDef):
        # A benchmark nested in a function runs when that function does (`train` calling its own
        # `epoch_with_timing`): only a top-level one is an entry point.
        top = enclosing_function(program, function) is None
        if asv_runs(program, function):
            timing.add(function)
        if _is_test(program, function) or asv_runs(program, function) or benchopt_runs(facts, function) \
                or (function in benchmarks and top):
            add(function)
    roots = [s for s in program.module.body if not isinstance(s, SCOPES)]
    for node in walk_code(program, roots):
        add(_run_by(facts, defined, node))
    while work:
        function = work.pop()
        for node in walk_code(program, function.body):
            add(_run_by(facts, defined, node))
            if function in timing and (method := _own_method_run(facts, node)) is not None:
                timing.add(method)  # `time_forward_model` runs `self.run_forward_model()` (case 505)
                add(method)
    return frozenset(here)


def _own_method_run(facts: Facts, node: ast.AST) -> ast.AST | None:
    """The method of its own class that ``node`` (``self.solve``, read in a method) calls: asv calls a suite's
    ``time_*`` methods, and what they run through ``self`` runs with them. (A test's ``self`` helpers are left to the
    test: read as running here, their traced helpers would be judged as timed code.)"""
    parent = facts.program.parent(node)
    if not (isinstance(node, ast.Attribute) and isinstance(parent, ast.Call) and parent.func is node):
        return None
    method = facts.own_method(node)
    return method if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


# asv's class-level settings and set-up: a class holding `time_*` methods and one of these is an asv benchmark suite.
_ASV_CLASS_NAMES = frozenset(
    {"setup", "setup_cache", "params", "param_names", "timeout", "number", "repeat", "warmup_time", "min_run_count",
     "sample_time", "rounds"}
)


def asv_timed(program: Program, function: ast.AST) -> bool:
    """asv times ``function``: a ``time_*`` method of a module-level class that asv would collect, one holding asv's
    set-up or settings (``setup``, ``params``, ``number``...). asv calls ``setup``, then the method until it has its
    samples, after warm-up runs it does not report (JAX's own ``benchmarks/bench_linalg.py``, case 300). A
    ``time_*`` function of a class with no such member is just a method with that name."""
    return getattr(function, "name", "").startswith("time_") and _asv_member(program, function)


def asv_runs(program: Program, function: ast.AST) -> bool:
    """asv calls ``function``: a method it times (`asv_timed`), or the ``setup`` / ``setup_cache`` of its class."""
    if asv_timed(program, function):
        return True
    owner = program.parent(function)
    return (
        getattr(function, "name", "") in ("setup", "setup_cache") and _asv_member(program, function)
        and isinstance(owner, ast.ClassDef) and any(getattr(n, "name", "").startswith("time_") for n in owner.body)
    )


# benchopt's solver base class, and the methods benchopt calls on a solver: `set_objective` once, then for each budget
# `pre_run_hook` and `run` (the one it times, `perf_counter` around the call alone), then `get_result` after its clock
# stops (case 356).
_BENCHOPT_SOLVERS = frozenset({"benchopt.BaseSolver", "benchopt.base.BaseSolver"})
_BENCHOPT_CALLS = frozenset({"set_objective", "pre_run_hook", "run", "get_result", "warm_up", "skip"})


def benchopt_timed(facts: Facts, function: ast.AST) -> bool:
    """benchopt times ``function``: the ``run`` method of a module-level subclass of benchopt's ``BaseSolver``."""
    return getattr(function, "name", "") == "run" and _benchopt_member(facts, function)


def benchopt_runs(facts: Facts, function: ast.AST) -> bool:
    """benchopt calls ``function``: a method of a solver it times (`benchopt_timed`) or sets up."""
    return getattr(function, "name", "") in _BENCHOPT_CALLS and _benchopt_member(facts, function)


def _benchopt_member(facts: Facts, function: ast.AST) -> bool:
    owner = facts.program.parent(function)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(owner, ast.ClassDef):
        return False
    return facts.program.parent(owner) is facts.program.module and any(
        facts.names.qualname(base) in _BENCHOPT_SOLVERS for base in owner.bases
    )


def _asv_member(program: Program, function: ast.AST) -> bool:
    """``function`` is a method of a module-level class holding asv's set-up or settings."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    owner = program.parent(function)
    if not isinstance(owner, ast.ClassDef) or program.parent(owner) is not program.module:
        return False
    members = {n.name for n in owner.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    members |= {t.id for n in owner.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    return bool(members & _ASV_CLASS_NAMES)


def _is_test(program: Program, function: ast.AST) -> bool:
    """A test a runner calls: ``test*`` in a test file (``test_*.py``, ``*_test.py``), or a ``test*`` method or
    set-up of a ``Test*`` / ``*Test`` class. A ``test_*`` helper of a library module is a library function."""
    name = function.name
    owner = program.parent(function)
    if isinstance(owner, ast.ClassDef) and (owner.name.startswith("Test") or owner.name.endswith(("Test", "Tests"))):
        return name.startswith("test") or name in _TEST_SETUP
    base = os.path.basename(program.path)
    if not name.startswith("test"):
        return False
    return base.startswith("test_") or base.endswith(("_test.py", "_tests.py")) or _pytest_marks(function)


def _pytest_marks(function: ast.AST) -> bool:
    """Only pytest runs what ``@pytest.mark.*`` marks or what asks for pytest-benchmark's ``benchmark`` fixture:
    such a ``test*`` function is a test wherever its file is kept."""
    for decorator in getattr(function, "decorator_list", ()):
        node = decorator.func if isinstance(decorator, ast.Call) else decorator
        while isinstance(node, ast.Attribute):
            if node.attr == "mark" and isinstance(node.value, ast.Name) and node.value.id == "pytest":
                return True
            node = node.value
    args = function.args
    return any(a.arg == "benchmark" for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])


def _run_by(facts: Facts, defined: dict[str, ast.AST], node: ast.AST) -> ast.AST | None:
    """The local def that ``node``, read in code that runs, calls or hands to a call (None if none): a
    name, a method (``model.step``) or a container's element (``fns["s"]``). A function returned or
    stored is not run here: whoever gets it decides."""
    if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) or not isinstance(node.ctx, ast.Load):
        return None
    parent = facts.program.parent(node)
    if isinstance(parent, ast.keyword):
        parent = facts.program.parent(parent)
    if not isinstance(parent, ast.Call):
        return None
    if parent.func is not node and parent.args and parent.args[0] is node and _defines(facts, parent):
        return None  # `g = jax.jit(f)`: f runs when g is called
    if isinstance(node, ast.Name):
        function = facts.def_named(node.id, node)
        if function is None and node.id in facts.jitted:
            function = facts.function_of(facts.jit_target(facts.jitted[node.id].node) or node)
        if function is not None or node.id in defined:
            return function or defined[node.id]
    # called through a name bound some other way (`g = sample`, `g = jit(f) if flag else f`, `fns["s"]`,
    # `Model.step`, a factory's result): the model's one answer to "which def does this run". Handed on
    # instead (`emit_python_callback(callback)`), such a value is registered or stored as often as run.
    if parent.func is not node:
        return None
    return facts.function_of(node) or facts.module_forward(parent)  # `net(x)` runs `Net.forward`


def _defines(facts: Facts, call: ast.Call) -> bool:
    """``call`` wraps a function in a transform whose result is bound or returned, not called."""
    transform = facts.is_jit(call.func) or facts.names.qualname(call.func) in _WRAPPING
    return transform and isinstance(facts.program.parent(call), _DEFINING)


def _transform_aliases(facts: Facts) -> dict[str, ast.AST]:
    """``g = jax.vmap(f)`` binds g to run f: name -> the local def it runs."""
    aliases: dict[str, ast.AST] = {}
    for node in facts.program.of_type(ast.Assign):
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            target = facts.jit_target(node.value) if facts.is_jit(node.value.func) else node.value
            function = facts.function_of(target) if target is not None else None
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                aliases[node.targets[0].id] = function
    return aliases
