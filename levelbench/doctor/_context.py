"""Everything a check needs about one program, built once, and the one way checks report."""

from __future__ import annotations

import ast
import dataclasses
import functools
import os
import re
from collections.abc import Callable
from typing import TypeVar

from ._devices import Devices
from ._diagnostic import Diagnostic
from ._edits import Editor, Fix
from ._facts import Facts
from ._iteration import applied_per_element
from ._kinds import Kinds
from ._names import Names, in_jax_backend
from ._placement import functions_run_here
from ._program import Program
from ._regions import TimedRegion, find_regions
from ._syntax import FUNCTIONS, SCOPES, enclosing_function, local_walk, walk_code
from ._warmth import Warmth

_Index = TypeVar("_Index")
_Answer = TypeVar("_Answer")
_BENCHMARK_WORDS = re.compile(r"(?i)bench|speed|perf|timing|profil")
# `computeTime`, `measure_time`, `time_inference`: "time" as a word of a function's name (not `timestep`, `runtime`)
_TIME_WORD = re.compile(r"(?:(?:^|_)[Tt]ime|(?<=[a-z0-9])Time)(?=$|_|[A-Z0-9])")
# A parameter holding the command line's parsed arguments: `args`, `argv`, `console_args`, `cli_args`
_COMMAND_LINE = re.compile(r"^(?:args|argv|\w+_args)$")
_TEST_RUNNERS = ("absltest.main", "googletest.main", "unittest.main", "pytest.main")


@dataclasses.dataclass(frozen=True)
class Context:
    program: Program
    names: Names
    facts: Facts
    kinds: Kinds
    regions: tuple[TimedRegion, ...]
    edits: bool = True
    """Whether findings get their `Diagnostic.fix` edits (only `--fix`/`--diff` and API callers use them)."""
    instrumentation: tuple[TimedRegion, ...] = ()
    """Timed regions left out of `regions`: a library function timing its own work (see `build`). Only a rule whose
    finding holds whatever the callers do reads them (LB116: work on a device the function is handed)."""
    _working: dict[ast.AST, bool] = dataclasses.field(default_factory=dict, repr=False, compare=False)
    _indexes: dict[str, object] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def build(cls, program: Program, *, edits: bool = True) -> Context:
        names = Names(program.of_type(*Names.BINDING_NODES))
        names.assume_conventional_imports(program.of_type(ast.Name, ast.Attribute))
        facts = Facts(program, names)
        context = cls(program, names, facts, Kinds(facts), find_regions(program, facts), edits)
        if all(r.scope is None for r in context.regions):
            return context
        # A library function timing its own work (for a log line) is instrumentation, not a benchmark; a
        # top-level function whose name (or file's) says it benchmarks runs here (`here`), so its timing stays.
        kept = tuple(r for r in context.regions if r.scope is None or not context.callers_decide(r.scope))
        if len(kept) == len(context.regions):
            return context
        left = tuple(r for r in context.regions if not any(r is k for k in kept))
        return dataclasses.replace(context, regions=kept, instrumentation=left)

    def report(
        self,
        code: str,
        node: ast.AST,
        message: str,
        *,
        end: ast.AST | None = None,
        evidence: str = "",
        fix: str = "",
        edits: Callable[[], Fix | None] | None = None,
    ) -> Diagnostic:
        """A diagnostic for rule ``code`` at ``node`` (through ``end``); ``edits()`` fix it in the source, called
        only when this context makes edits (a quarter of the time on a file with thousands of findings)."""
        location = self.program.location(node, end)
        source_line = self.program.line_text(getattr(node, "lineno", 1))
        fix_edits = edits() if edits is not None and self.edits else None
        return Diagnostic.of(code, location, message, evidence=evidence, fix=fix, source_line=source_line, edits=fix_edits)

    def where(self, node: ast.AST) -> str:
        """``"line 12"`` or ``"cell 3, line 2"``: a short place name for messages."""
        location = self.program.location(node)
        return f"cell {location.cell}, line {location.line}" if location.in_notebook else f"line {location.line}"

    @functools.cached_property
    def devices(self) -> Devices:
        """Where each PyTorch tensor is at each point of the program (`Devices.of`: ``"cuda"``, ``"cpu"``,
        ``"handed"`` or None): the one reader of devices for every rule."""
        return Devices(self.kinds)

    @functools.cached_property
    def editor(self) -> Editor:
        """Edits of the user's text at this program's nodes, for fixes."""
        return Editor(self.program, self.names)

    def index(self, name: str, build: Callable[[], _Index]) -> _Index:
        """A check's index over the whole program (``build()``), built on first use and kept for this program:
        asking "which earlier call ..." once per region by walking every call makes a long file quadratic."""
        if name not in self._indexes:
            self._indexes[name] = build()
        return self._indexes[name]  # type: ignore[return-value]

    def per_region(
        self, question: str, region: TimedRegion, find: Callable[[Context, TimedRegion], _Answer]
    ) -> _Answer:
        """``find(self, region)``, found once per region for this program and kept (`index`, under ``question``):
        several rules ask the same question of one region in turn (LB102, LB103 and LB104 each ask whether it only
        logs its interval)."""
        known: dict[int, tuple[TimedRegion, _Answer]] | None = self._indexes.get(question)  # type: ignore[assignment]
        if known is None:  # as `index(question, dict)` would, one call fewer: every `timed_nodes` asks here
            known = self._indexes[question] = {}
        found = known.get(id(region))
        if found is None:  # kept with its region: its id is not reused while the answer is kept
            found = known[id(region)] = (region, find(self, region))
        return found[1]

    def timed_nodes(self, region: TimedRegion) -> list[ast.AST]:
        """Every node of ``region.work``, nested functions and classes not entered (`walk_code`): walked once for
        all the checks that look at what a region times. Not to be changed by the caller."""
        return self.per_region("timed nodes", region, _walked)[0]

    def timed_calls(self, region: TimedRegion) -> list[ast.Call]:
        """The calls among `timed_nodes`, in the same order. Not to be changed by the caller."""
        return self.per_region("timed nodes", region, _walked)[1]

    @functools.cached_property
    def harness_runs(self) -> tuple[tuple[TimedRegion, ast.Call], ...]:
        """The calls timing harnesses make of the callables handed to them, with their region, in program order:
        ``timeit.timeit(solve_, number=1)`` runs ``solve_()`` (a call the region model builds, so no walk of the
        program finds it), ``timeit.timeit(lambda: run())`` runs ``run()`` where the harness is called. Each is a
        run like any other: it warms the next timing of the same callable, even when it was itself a compile timed
        on purpose (diffrax's 'Compile+run time', then 'Run time'). The calls inside a run are runs too:
        ``timeit.timeit(lambda: jax.block_until_ready(f(x)), number=1)`` runs ``f(x)``, whatever waits for it."""
        found = [
            (region, call)
            for region in (*self.regions, *self.instrumentation) if region.harness
            for call in self.timed_calls(region)
        ]
        return tuple(sorted(found, key=lambda pair: pair[0].start))

    @functools.cached_property
    def used_names(self) -> frozenset[str]:
        """Every name the program reads, binds or imports: a new name for a fix must be none of these."""
        imported = {
            a.asname or a.name
            for n in self.program.of_type(ast.Import, ast.ImportFrom)
            for a in n.names  # type: ignore[attr-defined]
        }
        return self.program.tree.identifiers() | imported

    # --- shared questions ----------------------------------------------------------------------
    def warms(self, earlier: ast.Call, later: ast.Call) -> bool:
        """Running ``earlier`` compiles what ``later`` runs: the same jitted value (not rebound between them), with
        an argument signature jit cannot tell apart; unknown counts as warmed (see `_warmth`)."""
        return self.warmth.warms(earlier, later)

    @property
    def warmth(self) -> Warmth:
        """The program's `Warmth`, built when first asked."""
        return self.index("warmth", lambda: Warmth(self.program, self.facts, self.kinds))

    @functools.cached_property
    def timed_ids(self) -> frozenset[int]:
        """ids of the nodes that run timed: in a timed region, in a local function it calls, or in a function
        handed to ``levelbench.measure`` / ``compare``. Outside a benchmark, a Gram matrix is just a Gram matrix."""
        roots: list[ast.AST] = [n for region in self.regions for n in region.work]
        for call in self.program.of_type(ast.Call):
            if (self.names.qualname(call.func) or "").startswith("levelbench."):
                roots.extend(call.args)
                roots.extend(k.value for k in call.keywords)
        seen: set[int] = set()
        stack = list(roots)
        while stack:
            for node in walk_code(self.program, [stack.pop()]):
                if id(node) in seen:
                    continue
                seen.add(id(node))
                function = None
                if isinstance(node, ast.Call):
                    function = self.facts.local_def(node)
                elif isinstance(node, ast.Name):
                    function = self.facts.def_named(node.id, node)
                if function is not None and id(function) not in seen:
                    seen.add(id(function))
                    stack.extend(function.body)
        return frozenset(seen)

    @functools.cached_property
    def here(self) -> frozenset[ast.AST]:
        """The functions that run here, as this file runs (see `_placement`): called or handed on, transitively,
        by module-level code, a ``__main__`` block, a cell, a test, or a function that benchmarks."""
        path = self.program.path
        benchmarks = {
            r.scope for r in self.regions
            if r.scope is not None and (_benchmarks(path, r.scope) or _reads_command_line(self.program, r.scope))
        }
        return functions_run_here(self.facts, benchmarks)

    def callers_decide(self, node: ast.AST) -> bool:
        """``node`` is in a library function: one nothing here runs, so its callers decide how it runs (they may
        jit it, vmap it, give it any sizes). A performance rule reports there only what holds whatever they do.
        Module-level code, and code in functions that run here (`here`), is decided here; a lambda runs
        where the function around it does."""
        function = node if isinstance(node, FUNCTIONS) else enclosing_function(self.program, node)
        while isinstance(function, ast.Lambda):
            function = enclosing_function(self.program, function)
        return function is not None and function not in self.here

    @functools.cached_property
    def runs_here(self) -> bool:
        """The file runs code when executed: a timed region, a ``__main__`` block that does more than start a test
        runner, or framework work at module level (a notebook's cells are its module level). A library module
        (definitions only) does not, as a script or as a notebook alike: the doctor cannot know how its functions
        are called, jitted or configured (case 252, GenJAX's timing helpers, read as cells)."""
        program = self.program
        if any(r.scope is None for r in self.regions):
            return True
        for stmt in program.module.body:
            if _is_main_block(stmt):
                if not _only_runs_tests(self, stmt):
                    return True
                continue
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
                continue
            timing = {id(r.scope) for r in self.regions if r.scope is not None}
            for node in walk_code(program, [stmt]):
                if isinstance(node, ast.Call) and self.does_framework_work(node):
                    return True
                if isinstance(node, ast.Call) and id(self.facts.local_def(node)) in timing:
                    return True  # the script calls its own timing helper
        return False

    @functools.cached_property
    def is_program(self) -> bool:
        """The file is a program, not a module for others to import: a notebook, a timing at module level, or
        module-level code (outside any def and the ``__main__`` block) that prints or calls the file's own timing
        helper, as a script does when it runs and a module does not on import (a module's constants, ``EYE =
        jnp.eye(3)``, are framework work and still a library's). The process-wide settings a program makes or leaves
        out (``jax_enable_x64``) are the ones all its functions run under, called here or not: a notebook's function
        is called in a later cell."""
        program = self.program
        if program.notebook or any(r.scope is None for r in self.regions):
            return True
        timing = {id(r.scope) for r in self.regions if r.scope is not None}
        for stmt in program.module.body:
            if _is_main_block(stmt) or isinstance(stmt, (*SCOPES, ast.Import, ast.ImportFrom)):
                continue
            for node in walk_code(program, [stmt]):
                if isinstance(node, ast.Call) and (
                    self.names.qualname(node.func) == "builtins.print" or id(self.facts.local_def(node)) in timing
                ):
                    return True
        return False

    def does_framework_work(self, call: ast.Call) -> bool:
        """The call computes with JAX, PyTorch or NumPy (directly, or in a local function it calls)."""
        facts = self.facts
        if facts.calls_jax_callable(call) or facts.is_flax_call(call) or facts.is_torch_model_call(call):
            return True
        if facts.runs_on_xla(call) or facts.library_call(call) is not None:
            return True
        if self.kinds.of(call) is not None:
            return True
        if in_jax_backend(self.names.qualname(call.func)):
            return True  # `pymc.sampling_jax.sample_blackjax_nuts(...)`: the module's name says JAX (case 406)
        if facts.keras_model_method(call) is not None:
            return True  # `llm(ids)`, `model.predict(x)` of a Keras model on JAX (cases 452, 453)
        if facts.engine_of(call) is not None:
            return True  # `pm.sample(nuts_sampler="numpyro")`: the call's own keyword picks the engine (cases 414, 456)
        if isinstance(call.func, ast.Attribute) and facts.built_with_engine(call.func.value) is not None:
            return True  # `mps.position(N - 1)` of `mps = FiniteMPS(tensors, backend=backend)` (case 456)
        if facts.engine_handed(call) is not None:
            return True  # `nutpie.sample(compiled)` of `compiled = nutpie.compile_pymc_model(m, backend="jax")` (472)
        if facts.profiled_imports and facts.imported_function(call.func) in facts.profiled_imports:
            return True  # `j_integrate_many(...)`, which the file runs under `jax.profiler.trace` (case 405)
        function = facts.local_def(call) or applied_per_element(facts, call)  # `jax.tree.map(quantize, params)`
        return function is not None and (self.function_works(function) or self._computes_on_given(function, call))

    def _computes_on_given(self, function: ast.AST, call: ast.Call) -> bool:
        """``call`` hands ``function`` a framework array that its body computes with (``def chain(x): x = x @ x``
        called with a torch tensor): the operators run in that framework though no call in the body says so."""
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        parameters = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        given = {name for name, value in zip(parameters, call.args) if self.kinds.of(value) is not None}
        given |= {k.arg for k in call.keywords if k.arg in parameters and self.kinds.of(k.value) is not None}
        if not given:
            return False
        return any(
            isinstance(n, (ast.BinOp, ast.UnaryOp)) and any(
                isinstance(m, ast.Name) and m.id in given for m in ast.walk(n)
            )
            for n in local_walk(self.program, function)
        )

    def function_works(self, function: ast.AST) -> bool:
        """A local def or lambda whose body does framework work (`does_framework_work` of one of its calls)."""
        memo = self._working
        if function not in memo:
            memo[function] = False  # recursion guard
            body = local_walk(self.program, function)
            memo[function] = any(isinstance(n, ast.Call) and self.does_framework_work(n) for n in body)
        return memo[function]


def _walked(ctx: Context, region: TimedRegion) -> tuple[list[ast.AST], list[ast.Call]]:
    """`Context.timed_nodes` and `Context.timed_calls` of ``region``, from one walk; set-up the work holds (the
    arguments a ``partial`` handed to a harness binds, evaluated before its clock starts) is not timed."""
    nodes = list(walk_code(ctx.program, list(region.work)))
    if region.setup:
        untimed = {id(n) for n in walk_code(ctx.program, list(region.setup))}
        nodes = [n for n in nodes if id(n) not in untimed]
    return nodes, [n for n in nodes if isinstance(n, ast.Call)]


def _is_main_block(stmt: ast.stmt) -> bool:
    """``if __name__ == "__main__":``"""
    test = stmt.test if isinstance(stmt, ast.If) else None
    return (
        isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _only_runs_tests(ctx: Context, block: ast.If) -> bool:
    """``absltest.main()``, ``unittest.main()``, ``pytest.main()``: the tests run, not script code."""
    calls = [n for n in walk_code(ctx.program, block.body) if isinstance(n, ast.Call)]
    runners = [c for c in calls if (ctx.names.qualname(c.func) or "").endswith(_TEST_RUNNERS)]
    return bool(runners) and not any(ctx.does_framework_work(c) for c in calls)


def _benchmarks(path: str, scope: ast.AST) -> bool:
    """A function or file whose name says it measures speed (``bench_step``, ``test_speed``, ``perf.py``), or a function
    whose name has "time" as a word (``computeTime``, ``measure_time``; not ``runtime`` or ``timestep``): FastSaliency's
    ``computeTime`` (case 338) runs a model 100 times and prints the mean, a benchmark nothing in its file calls."""
    name = getattr(scope, "name", "")
    return bool(
        _BENCHMARK_WORDS.search(name) or _TIME_WORD.search(name) or _BENCHMARK_WORDS.search(os.path.basename(path))
    )


def _reads_command_line(program: Program, scope: ast.AST) -> bool:
    """A module-level function that times itself and reads an attribute of a parameter named as the command line's
    parsed arguments (``console_args.device``, ``args.n``, ``argv.size``, ``cli_args.seed``) is a script's entry point,
    started by the script's own ``main`` with what the user typed, not a library function's log line: PaxRL's
    ``tests/test.py`` ``run_test_1(console_args)`` (case 424) times one call of a rollout it jits inside the clock
    pair. Not ``*args`` (a tuple of positional values), not a method (``save(self, directory, args)`` of a library's
    checkpoint handler: its ``args`` are the caller's, orbax in the library corpus)."""
    arguments = getattr(scope, "args", None)
    if arguments is None or program.parent(scope) is not program.module:
        return False
    named = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs) if _COMMAND_LINE.match(a.arg)}
    return bool(named) and any(
        isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in named
        for n in ast.walk(scope)
    )
