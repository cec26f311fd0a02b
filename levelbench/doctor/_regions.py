"""Timed regions: the code a script measures, however it measures it.

Recognised forms:
- a clock pair: ``t0 = time.perf_counter()`` ... ``time.perf_counter() - t0`` in the same block
  (``time.time``, ``monotonic``, ``process_time``, the ``_ns`` variants and ``timeit.default_timer``),
  read directly or through a local helper that returns one (``def now(): return time.perf_counter()``);
- a stopwatch started by one call and read by a later one in the same block: quantecon's ``qe.tic()`` ...
  ``elapsed = qe.toc()`` (or ``qe.tac()``);
- IPython magics: ``%time``, ``%timeit``, ``%%time``, ``%%timeit`` (spliced into the tree by `_program`);
- ``timeit.timeit`` / ``timeit.repeat`` / ``timeit.Timer`` with a lambda, a callable, a
  ``functools.partial`` or a statement string; ``torch.utils.benchmark.Timer``;
- pytest-benchmark's ``benchmark(f, *args)`` fixture;
- asv's ``time_*`` methods of a benchmark class (one with ``setup``, ``params`` or another asv setting), each
  body timed whole, after warm-up calls;
- google_benchmark's state loop: ``while state:`` (``for _ in state:``, ``while state.KeepRunning():``) in a
  function registered with ``google_benchmark.register``, its body timed once per iteration, many iterations;
- ``with Timer():``-style context managers (by name: timer, timing, timed, stopwatch, catchtime), a local class
  whose ``__enter__`` and ``__exit__`` read a clock, and a local ``@contextlib.contextmanager`` that yields
  between clock reads or inside such a ``with``.

``levelbench.measure`` / ``levelbench.compare`` are correct timing and are not regions.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import textwrap
from collections.abc import Callable, Iterator

from ._facts import Facts, FunctionNode
from ._names import DEVICE_NAMES, dotted
from ._placement import asv_timed, benchopt_timed
from ._program import Magic, Program
from ._syntax import COMPREHENSIONS, FUNCTIONS, LOOPS, argument, bound_names, enclosing_function, enclosing_loop, position, walk_code

CLOCKS = frozenset(
    {
        "time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.time_ns",
        "time.perf_counter_ns", "time.monotonic_ns", "time.process_time_ns", "timeit.default_timer",
        "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
    }
)
WALL_CLOCKS = frozenset(
    {"time.time", "time.time_ns", "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today"}
)
# A stopwatch: the first call starts it, a later call returns the time since (quantecon's MATLAB-style timers).
STOPWATCH_STARTS = frozenset({"quantecon.tic", "quantecon.util.tic", "quantecon.util.timing.tic"})
STOPWATCH_READS = frozenset(
    {"quantecon.toc", "quantecon.tac", "quantecon.util.toc", "quantecon.util.tac", "quantecon.util.timing.toc",
     "quantecon.util.timing.tac"}
)
_TIMER_NAMES = re.compile(r"(?i)^(timer|timing|timed|stopwatch|catch_?time|time_?block|time_?it|benchmark)$")


_CONTEXT_MANAGERS = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})
_GRIDS = frozenset({"linspace", "logspace", "geomspace"})


def _number(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


def clock_read(node: ast.AST) -> ast.AST:
    """The clock call in a reading scaled to a unit by a number: ``time.time_ns() / 1000`` (microseconds),
    ``time.perf_counter() * 1e3`` (milliseconds), ``1000 * time.time()``; ``node`` itself otherwise. A scaled
    reading is still a reading of that clock, and a pair of them times the code between them (case 366)."""
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.FloorDiv)):
        if _number(node.right):
            node = node.left
        elif isinstance(node.op, ast.Mult) and _number(node.left):
            node = node.right
        else:
            break
    return node


def _flag(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, bool)


def _device_name(node: ast.AST) -> bool:
    """``"cpu"``, ``"gpu"``, ``"cuda:0"``: a platform written out as a setting (`DEVICE_NAMES`)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) \
        and node.value.lower().split(":")[0] in DEVICE_NAMES


_COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try)


@dataclasses.dataclass(frozen=True)
class TimedRegion:
    """One measured piece of code.

    Attributes:
        label: how it is timed, as the user wrote it: ``"%timeit"``, ``"time.time() pair"``, ``"timeit.timeit"``.
        anchor: the node region-level findings point at.
        statements: the timed statements or expressions as written (a ``%timeit lambda: f(x)`` keeps its lambda).
        work: what actually runs timed; a harness-level lambda is replaced by its body, a callable by a call.
        scope: the function the region is in, None at module level (warm-ups are looked for in the same scope).
        start: program position where the timing starts.
        samples: ``"single"`` (one run), ``"averaged"`` (a total over a loop), ``"per-iteration"`` (the pair
            sits in a loop or in a function called repeatedly), ``"repeated"`` (a harness repeats it).
        calibrated: the result never holds the cold first call: the harness runs untimed calls first (%timeit
            without -n, torch's Timer, pytest-benchmark), or takes the best of its repeats (``min(timeit.repeat(...))``).
        clocks: qualified names of the clocks a clock pair reads.
        clock_node: the starting clock call, for clock pairs.
        setup: code a harness runs untimed before the timing (timeit's ``setup``, a ``partial``'s bound arguments).
        synchronizes: the harness waits for CUDA itself (torch's Timer).
        harness: the statement comes from a timing harness (magic, timeit), not from surrounding code.
        before_clock: calls in a clock pair's last statement that run before the clock is read there.
        closing: a clock pair's statement that subtracts the readings (``dt = time.perf_counter() - t0``).
        swept: the loop variable of a sweep, ``""`` when none: the timing sits in a ``for`` over a grid of values
            (``range(5, 3000, 100)``, ``[128, 256, 512]``) and the timed code is given the variable itself
            (``solve(model, m=m)``), so each value is timed once: one sample per value, not repeats of one thing.
        end_read: a clock pair's second read when a statement of its own keeps it (``t1 = time.perf_counter()``)
            and other statements follow it before the one that subtracts the readings (``closing``); None otherwise.
    """

    label: str
    anchor: ast.AST
    statements: tuple[ast.AST, ...]
    work: tuple[ast.AST, ...]
    scope: ast.AST | None
    start: tuple[int, int]
    samples: str
    calibrated: bool = False
    clocks: tuple[str, ...] = ()
    clock_node: ast.AST | None = None
    setup: tuple[ast.AST, ...] = ()
    synchronizes: bool = False
    harness: bool = False
    before_clock: tuple[ast.AST, ...] = ()
    closing: ast.AST | None = None
    swept: str = ""
    end_read: ast.AST | None = None

    def written_lines(self) -> tuple[int, int]:
        """The first and last line of the timing as written: the opening read (or magic) to the closing one; (0, 0)
        when none is known. A loop or block whose body subtracts the reads is the timed code, not words about it. When
        the second read is a statement of its own (``t1 = time.perf_counter()``), the timing ends there: the code
        between it and a later subtraction (``t_numpy = t1 - t0`` after the JAX set-up and its `# Compile / warmup`
        comment, case 345) is not the timing's, and the subtraction's words are read where the figure is reported
        (`reported_at`)."""
        closing = self.closing if self.closing is not None and not isinstance(self.closing, _COMPOUND) else None
        if self.end_read is not None:
            closing = self.end_read
        nodes = [*self.statements, self.anchor, *((closing,) if closing is not None else ())]
        starts = [line for n in nodes if (line := getattr(n, "lineno", 0))]
        ends = [getattr(n, "end_lineno", None) or getattr(n, "lineno", 0) for n in nodes]
        return (min(starts), max(ends)) if starts else (0, 0)

    def subtraction_lines(self) -> list[int]:
        """The lines of the statement that subtracts the readings when `written_lines` ends before it (``end_read``):
        the words there (``compile_time = t1 - t0``, ``steps_per_s_jit = n / (jit_time - jit_start)``) still say
        what the figure is."""
        closing = self.closing
        if self.end_read is None or closing is None or isinstance(closing, _COMPOUND):
            return []
        return list(range(getattr(closing, "lineno", 0), (getattr(closing, "end_lineno", None) or 0) + 1))

    @property
    def timer_block(self) -> bool:
        """``with Timer():`` (any context manager that times its body): its body runs once per entry."""
        return self.label.startswith("with ")

    @property
    def by(self) -> str:
        """How the region is timed, for messages: "a `time.time()` pair", "`%timeit`", "the benchmark fixture"."""
        if self.clock_node is not None:
            return f"a `{self.clocks[0]}()` pair"
        if self.clocks:  # read through a helper: "a `now()` pair"
            return f"a `{self.label.removesuffix(' pair')}` pair"
        if self.label == "benchmark fixture":
            return "the benchmark fixture"
        if self.label == "google_benchmark state loop":
            return "google_benchmark's `while state:` loop"
        if self.label == "asv time_ method":
            return f"asv's `{getattr(self.scope, 'name', 'time_')}`"
        if self.label == "benchopt run":
            return "benchopt's timing of `run`"
        return f"`{self.label}`"


def find_regions(program: Program, facts: Facts) -> tuple[TimedRegion, ...]:
    """Every timed region of ``program``, in program order."""
    finder = _Finder(program, facts)
    regions = [
        *finder.clock_pairs(), *finder.stopwatch_pairs(), *finder.magics(), *finder.harness_calls(),
        *finder.timer_blocks(), *finder.state_loops(), *finder.asv_methods(), *finder.benchopt_runs(),
    ]
    return tuple(sorted(regions, key=lambda r: r.start))


_MODAL_APPS = frozenset({"modal.App", "modal.Stub"})
"""Modal's application objects, whose registrars run a function remotely once per call (`_Finder._runs_once`)."""
_MODAL_REGISTRARS = frozenset({"function", "local_entrypoint", "cls"})


class _Finder:
    def __init__(self, program: Program, facts: Facts) -> None:
        self.program = program
        self.facts = facts
        self.names = facts.names
        self._helper_clocks: dict[ast.AST, str | None] = {}  # local def -> the clock it returns

    # --- clock pairs -------------------------------------------------------------------------
    def clock_pairs(self) -> Iterator[TimedRegion]:
        for stmt in self.program.of_type(ast.Assign):
            start = self._clock_assignment(stmt)
            if start is None:
                continue
            found = self.program.statement_list(stmt)
            if found is None:
                continue
            var, clock_call = start
            region = self._clock_region(found[0], found[1], var, clock_call)
            if region is not None:
                yield region
                yield from self._later_readings(found[0], found[1], var, clock_call, region)

    def _clock_assignment(self, stmt: ast.AST) -> tuple[str, ast.Call] | None:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            value = clock_read(stmt.value)
            if isinstance(value, ast.Call) and self._clock_name(value) is not None:
                return stmt.targets[0].id, value
        return None

    def _clock_name(self, call: ast.Call) -> str | None:
        """The clock a call reads: ``time.perf_counter()``, or a local helper that only returns one
        (``def now(): return time.perf_counter()``)."""
        if call.args:
            return None
        qualified = self.names.qualname(call.func)
        if qualified in CLOCKS:
            return qualified
        if qualified is not None or not isinstance(call.func, ast.Name):
            return None
        function = self.facts.def_named(call.func.id, call)
        if function is None:
            return None
        if function not in self._helper_clocks:
            body = [s for s in function.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            inner = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
            found = self.names.qualname(inner.func) if isinstance(inner, ast.Call) and not inner.args else None
            self._helper_clocks[function] = found if found in CLOCKS else None
        return self._helper_clocks[function]

    def _through_helper(self, call: ast.Call) -> bool:
        return self.names.qualname(call.func) not in CLOCKS

    def _clock_region(self, block: list[ast.stmt], i: int, var: str, clock_call: ast.Call) -> TimedRegion | None:
        end = end_read = None
        subtraction = None
        for j in self.program.statements_mentioning(block, i, var):
            subtraction = _subtraction_from(self.program, block[j], var)
            if subtraction is not None:
                end = j
                break
            restart = self._clock_assignment(block[j])
            if restart is not None and restart[0] == var:  # restarted before use: only an unused pair is left
                return self._unused_clock_pair(block, i, var, clock_call)
        if end is None or subtraction is None:
            carried = self._carried_to_next_pass(block, i, var, clock_call)
            if carried is None:
                carried = self._started_on_a_later_pass(block, i, var, clock_call)
            return carried if carried is not None else self._unused_clock_pair(block, i, var, clock_call)
        stop = end + 1 if isinstance(block[end], (*LOOPS, ast.If, ast.With, ast.Try)) else end
        clocks = [self._clock_name(clock_call) or ""]
        read_at, end_clock = self._end_read(block, i, end, subtraction)
        if read_at is not None:
            stop = read_at
            end_read = read_at if end > read_at + 1 else None  # code between the read and the subtraction
            clocks.append(end_clock or "")
        elif end_clock is not None:
            clocks.append(end_clock)
        statements = tuple(block[i + 1 : stop])
        if not statements:
            return None
        # `print(f"{float(loss)} {time.perf_counter() - t0}")`: what the end statement evaluates before the clock
        before_clock = tuple(
            n for n in self.program.walk(block[end]) if isinstance(n, ast.Call) and _ends_before(n, subtraction)
        ) if stop == end else ()
        scope = enclosing_function(self.program, block[i])
        samples = self._pair_samples(block[i], scope, statements)
        helper = self._through_helper(clock_call)  # `start = now()`: no clock call here for a fix to edit
        return TimedRegion(
            label=f"{dotted(clock_call.func) if helper else clocks[0]}() pair",
            anchor=clock_call,
            statements=statements,
            work=statements,
            scope=scope,
            start=position(block[i]),
            samples=samples,
            clocks=tuple(dict.fromkeys(clocks)),
            clock_node=None if helper else clock_call,
            before_clock=before_clock,
            closing=block[end],
            swept=self._swept(block[i], statements) if samples == "per-iteration" else "",
            end_read=None if end_read is None else block[end_read],
        )

    def _end_read(
        self, block: list[ast.stmt], after: int, end: int, subtraction: ast.BinOp
    ) -> tuple[int | None, str | None]:
        """Where ``subtraction`` (in ``block[end]``) reads its end clock, and that clock's name: ``(None, name)`` when it
        reads the clock itself (``time.time() - start``), ``(k, name)`` when it reads a name that ``block[k]``, after
        ``block[after]``, bound to a clock read (``end = time.time()`` ... ``end - start``); the name is None where no
        clock is read."""
        left = clock_read(subtraction.left)
        if isinstance(left, ast.Call):
            return None, self._clock_name(left)
        if isinstance(left, ast.Name):
            for k in range(end - 1, after, -1):
                found = self._clock_assignment(block[k])
                if found is not None and found[0] == left.id:
                    return k, self._clock_name(found[1])
        return None, None

    def _carried_to_next_pass(
        self, block: list[ast.stmt], i: int, var: str, clock_call: ast.Call
    ) -> TimedRegion | None:
        """A start read that ends a loop's pass and is subtracted, on the next pass, by a statement above it
        (jaxpt's training loop: ``iter_time = (time.time() - start) / print_interval`` where the pass's printing
        branch begins, ``start = time.time()`` where it ends, case 401): the interval holds the rest of the pass after
        the read and the next pass up to the subtraction. The first pass runs that code before the first read, so
        the figure never holds a first call (``calibrated``). Nothing after the read in the pass may mention it. A start
        read before the loop too (dm-haiku's transformer example: ``prev_time = time.time()``, then the loop's
        ``steps_per_sec = LOG_EVERY / (time.time() - prev_time)``; ``prev_time = time.time()``) is that pair's timing,
        read as it always was."""
        loop = enclosing_loop(self.program, block[i])
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or enclosing_function(self.program, loop) \
                is not enclosing_function(self.program, block[i]):
            return None
        around = self.program.statement_list(loop)
        if around is not None and any((found := self._clock_assignment(s)) is not None and found[0] == var
                                      for s in around[0][:around[1]]):
            return None  # `prev_time = time.time()` before the loop: that pair times the figure, restarted per pass
        later: list[ast.stmt] = []
        statement: ast.AST = block[i]
        while True:
            found = self.program.statement_list(statement)
            if found is None:
                return None
            statements, k = found
            after = statements[k + 1:]
            if any(isinstance(n, ast.Name) and n.id == var for s in after for n in ast.walk(s)):
                return None
            later.extend(after)
            if statements is loop.body:
                top = k
                break
            statement = self.program.parent(statement)
            if statement is None or statement is loop or isinstance(statement, FUNCTIONS):
                return None
        for j in range(top + 1):
            subtraction = _subtraction_from(self.program, loop.body[j], var)
            left = clock_read(subtraction.left) if subtraction is not None else None
            if isinstance(left, ast.Call) and self._clock_name(left) is not None:
                break
        else:
            return None
        timed = tuple([*later, *loop.body[:j]])
        if not timed or self._through_helper(clock_call):
            return None
        clock = self._clock_name(clock_call) or ""
        return TimedRegion(
            label=f"{clock}() pair",
            anchor=clock_call,
            statements=timed,
            work=timed,
            scope=enclosing_function(self.program, block[i]),
            start=position(block[i]),
            samples="per-iteration",
            calibrated=True,
            clocks=tuple(dict.fromkeys([clock, self._clock_name(left) or ""])),
            clock_node=clock_call,
            closing=loop.body[j],
        )

    def _started_on_a_later_pass(
        self, block: list[ast.stmt], i: int, var: str, clock_call: ast.Call
    ) -> TimedRegion | None:
        """A start read that runs on one pass of a ``for`` loop, chosen by its counter (``if step == 1: start =
        perf_counter()``), and is subtracted only after the loop (``finish = perf_counter(); elapsed = finish -
        start``): the figure holds the rest of that pass and every later pass, then what runs after the loop up to
        the end read (texmo's GRU benchmark, whose clock starts at the second step so that the first step's compile
        stays out, case 519 (was 493)). The passes before the chosen one run first, so the figure holds no first call
        (``calibrated``); a pass chosen as ``== 0`` is not read here. Nothing else in the loop may mention the start,
        and no read before the loop may set it (that pair times the figure)."""
        branch = self.program.parent(block[i])
        loop = self.program.parent(branch) if isinstance(branch, ast.If) else None
        if not (isinstance(branch, ast.If) and block is branch.body and not branch.orelse
                and isinstance(loop, (ast.For, ast.AsyncFor)) and any(s is branch for s in loop.body)
                and isinstance(loop.target, ast.Name) and self._names_a_later_pass(branch.test, loop.target.id)):
            return None
        if any(isinstance(n, ast.Name) and n.id == var for k, s in enumerate(block) if k != i for n in ast.walk(s)) \
                or any(isinstance(n, ast.Name) and n.id == var
                       for s in loop.body if s is not branch for n in ast.walk(s)):
            return None
        around = self.program.statement_list(loop)
        if around is None or any(isinstance(n, ast.Name) and n.id == var
                                 for s in around[0][:around[1]] for n in ast.walk(s)):
            return None
        outer, at = around
        end = next(iter(self.program.statements_mentioning(outer, at, var)), None)
        subtraction = None if end is None else _subtraction_from(self.program, outer[end], var)
        if end is None or subtraction is None or self._through_helper(clock_call):
            return None
        read_at, end_clock = self._end_read(outer, at, end, subtraction)
        stop = end if read_at is None else read_at
        if not end_clock or isinstance(outer[end], (*LOOPS, ast.If, ast.With, ast.Try)):
            return None
        statements = (loop, *outer[at + 1 : stop])
        scope = enclosing_function(self.program, loop)
        clock = self._clock_name(clock_call) or ""
        return TimedRegion(
            label=f"{clock}() pair",
            anchor=clock_call,
            statements=statements,
            work=statements,
            scope=scope,
            start=position(block[i]),
            samples=self._pair_samples(loop, scope, statements),
            calibrated=True,
            clocks=tuple(dict.fromkeys([clock, end_clock])),
            clock_node=clock_call,
            before_clock=tuple(
                n for n in self.program.walk(outer[end]) if isinstance(n, ast.Call) and _ends_before(n, subtraction)
            ) if stop == end else (),
            closing=outer[end],
        )

    @staticmethod
    def _names_a_later_pass(test: ast.expr, counter: str) -> bool:
        """``counter == k`` (either way round) for a ``k`` that is not the literal 0: a pass after the first."""
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
            return False
        left, right = test.left, test.comparators[0]
        if _is_name(right, counter):
            left, right = right, left
        return _is_name(left, counter) and not (isinstance(right, ast.Constant) and right.value == 0) \
            and not any(isinstance(n, ast.Name) and n.id == counter for n in ast.walk(right))

    def _later_readings(
        self, block: list[ast.stmt], i: int, var: str, clock_call: ast.Call, first: TimedRegion
    ) -> Iterator[TimedRegion]:
        """The same start read again, by a later statement of its block that subtracts it from a clock read there
        (``print(f"... {time.time() - start:.2f}")`` twice, the second after more work): each such figure times
        everything from the start to it, the work after the first reading included (Aakash Nain's 'forward pass'
        figure, case 383). Up to a restart of the clock."""
        closing = first.closing
        passed = False
        for j in self.program.statements_mentioning(block, i, var):
            if not passed:
                passed = block[j] is closing
                continue
            restart = self._clock_assignment(block[j])
            if restart is not None and restart[0] == var:
                return
            subtraction = _subtraction_from(self.program, block[j], var)
            left = clock_read(subtraction.left) if subtraction is not None else None
            if not (isinstance(left, ast.Call) and self._clock_name(left) is not None) \
                    or isinstance(block[j], (*LOOPS, ast.If, ast.With, ast.Try)):
                continue
            statements = tuple(block[i + 1 : j])
            before_clock = tuple(
                n for n in self.program.walk(block[j]) if isinstance(n, ast.Call) and _ends_before(n, subtraction)
            )
            yield dataclasses.replace(first, statements=statements, work=statements, closing=block[j],
                                      before_clock=before_clock, end_read=None,
                                      clocks=tuple(dict.fromkeys([*first.clocks, self._clock_name(left) or ""])))

    def _repeated(self, node: ast.AST, scope: ast.AST | None) -> bool:
        """The timing at ``node`` runs more than once: in a loop, or in a function called more than once. One
        answer for every kind of region: a clock pair and ``timeit.timeit(..., number=1)`` in a loop alike
        take one sample per iteration."""
        return enclosing_loop(self.program, node) is not None or self.facts.called_repeatedly(scope)

    def _swept(self, node: ast.AST, timed: tuple[ast.AST, ...]) -> str:
        """The variable of the loop around ``node`` when that loop sweeps a grid of values and the timed code
        passes the variable itself to a call: ``for m in range(5, 3000, 100): ... solve(model, m=m)``. A loop
        counter (``range(n)``), a loop over data (``for batch in loader``) or a variable used only as an index
        (``xs[i]``) repeats one measurement instead. Narrower than `_vocabulary.is_sweep` (the timed work changes per
        iteration, which a loop over data batches also does): here each value is a setting timed once. A timing
        that runs a loop of its own per value (``for _ in range(10): f(x)`` between the clocks) is a total over
        runs, not one sample of each value."""
        if any(isinstance(n, (*LOOPS, *COMPREHENSIONS)) for n in walk_code(self.program, list(timed))):
            return ""
        loop = enclosing_loop(self.program, node)
        if loop is None:
            return self._swept_by_callers(node)
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            return ""
        if not isinstance(loop.target, ast.Name) or not self._grid(loop.iter, loop):
            return self._swept_settings(loop, timed)
        name = loop.target.id
        for call in walk_code(self.program, timed):
            if isinstance(call, ast.Call) and any(
                isinstance(a, ast.Name) and a.id == name for a in [*call.args, *(k.value for k in call.keywords)]
            ):
                return name
        return self._swept_settings(loop, timed)  # `solver = cls(eps_abs=tol)` built from it, then timed

    def _swept_settings(self, loop: ast.For | ast.AsyncFor, timed: tuple[ast.AST, ...]) -> str:
        """The loop variable of a loop over settings written out one by one (a list or tuple display of two distinct
        entries or more, or a name bound only to one: lineax's ``named_solvers`` of solver tuples), when the timed
        code is built from it in the pass: the callable timed or an argument of a timed call is the variable, or a
        name the pass binds from it (``lx_solver = partial(base, solver=_lx_solver)``, ``bench = partial(lx_solver,
        matrix, b)``, ``timeit.timeit(bench, number=1)``). Each entry is then timed once, one sample per setting
        (case 284). A loop over ``range(n)`` or over data repeats one measurement, as before (case 223).

        Over values read elsewhere (``for tol in args.tol``), the pass must build the object whose method it times
        from the variable, by a call: ``solver = cls(eps_abs=tol)`` then ``solver.optimize(problem)`` times a new
        configuration each pass (MPAX's sweep, case 301); handing the variable to a timed call is not enough there
        (``net(img)`` for each ``img`` of a data set repeats one measurement)."""
        written_out = self._written_out(loop.iter, loop)
        if not written_out and not isinstance(loop.iter, (ast.Name, ast.Attribute)):
            return ""
        origin = {name: name for name in bound_names(loop.target)}
        assignments = [n for n in walk_code(self.program, loop.body) if isinstance(n, ast.Assign)]
        changed = True
        while changed:  # names the pass binds from the loop variables, through other such names
            changed = False
            for assignment in assignments:
                read = next((origin[n.id] for n in ast.walk(assignment.value) if isinstance(n, ast.Name)
                             and isinstance(n.ctx, ast.Load) and n.id in origin), None)
                if read is None:
                    continue
                for target in assignment.targets:
                    for bound in bound_names(target) - origin.keys():  # `x[i] = v`, `a.b = v` bind no name
                        origin[bound] = read
                        changed = True
        built = {  # names the pass binds to what a call returns: `solver = cls(eps_abs=tol)`
            t.id for a in assignments if isinstance(a.value, ast.Call) for t in a.targets if isinstance(t, ast.Name)
        }
        for call in walk_code(self.program, timed):
            if not isinstance(call, ast.Call):
                continue
            owner = call.func.value if isinstance(call.func, ast.Attribute) else None  # `solver.optimize(...)`
            if isinstance(owner, ast.Name) and owner.id in origin and (written_out or owner.id in built):
                return origin[owner.id]
            if not written_out:
                continue
            for used in [call.func, *call.args, *(k.value for k in call.keywords)]:
                if isinstance(used, ast.Name) and used.id in origin:
                    return origin[used.id]
        return ""

    def _written_out(self, values: ast.AST, at: ast.AST, depth: int = 0) -> bool:
        """``values`` is a list or tuple display of two or more distinct entries, none of them a starred or computed
        element, or a name bound only to such displays."""
        if isinstance(values, ast.Name) and depth < 3:
            bound = self.facts.bindings.values_at(values.id, at)
            return bool(bound) and all(self._written_out(v, at, depth + 1) for v in bound)
        if not isinstance(values, (ast.List, ast.Tuple)) or len(values.elts) < 2:
            return False
        if any(isinstance(e, ast.Starred) for e in values.elts):
            return False
        return len({ast.dump(e) for e in values.elts}) == len(values.elts)

    def _swept_by_callers(self, node: ast.AST) -> str:
        """The parameter of the function around ``node`` that its callers sweep: every call of the function sits in
        a ``for`` over a grid of values (`_grid`) or over settings written out one by one (`_written_out`: ``for
        device in [cpu, gpu]: test_backend(device)``, HPCmAI's ``cpu_vs_gpu_scaling.py``, case 436) and passes it the
        loop variable (``for i in range(30, 35): run_and_time(i)``), or the calls are the grid written out, one call per value (``timed(10000)``,
        ``timed(30000)``: `_written_out_grid`); and the function reads that parameter. The timing inside is then
        taken once per value, as a clock pair in the sweep's own body would be; ``""`` when any call is neither."""
        function = enclosing_function(self.program, node)
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return ""
        sites = self.facts.call_sites(function)
        positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
        swept: set[str] = set()
        decorated = self._decorated_parameter(sites, positional)
        if decorated:
            swept, sites = {decorated}, []
        elif sites and all(enclosing_loop(self.program, s) is None for s in sites):
            swept = self._written_out_grid(function, sites, positional) or self._written_out_callables(
                function, sites, positional
            )
            sites = [] if swept else sites
        product = False
        for site in sites:
            call, loop = self.program.parent(site), enclosing_loop(self.program, site)
            names = self._product_of_grids(loop) if isinstance(loop, (ast.For, ast.AsyncFor)) else []
            product = product or bool(names)
            if not names and not (isinstance(call, ast.Call) and call.func is site
                                  and isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name)
                                  and (self._grid(loop.iter, loop) or self._written_out(loop.iter, loop))):
                return ""  # a grid, or settings written out one by one (`for device in [cpu, gpu]`, case 436)
            if not (isinstance(call, ast.Call) and call.func is site):
                return ""
            if not names:  # the loop variable, and the inputs the pass builds from it (`ci_vals = jnp.linspace(..., num=n)`)
                names = [loop.target.id, *self._built_from(loop, loop.target.id, site)]  # type: ignore[union-attr]
            given = {positional[k] for k, a in enumerate(call.args[: len(positional)]) if _is_name(a, *names)}
            given |= {k.arg for k in call.keywords if k.arg is not None and _is_name(k.value, *names)}
            rest = call.args[len(positional):]  # `measure_time(fn, *inputs)` given `ci_vals`: the `*inputs`
            if function.args.vararg is not None and any(_is_name(a, *names) for a in rest):
                given.add(function.args.vararg.arg)
            if not given:
                return ""
            swept |= given
        body = walk_code(self.program, function.body)
        read = {n.id for n in body if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        found = [p for p in positional if p in swept & read] if product else sorted(swept & read)
        return ", ".join(found) if product and found else found[0] if len(found) == 1 else ""

    def _product_of_grids(self, loop: ast.For | ast.AsyncFor) -> list[str]:
        """The loop's variables when it runs over ``itertools.product`` of grids or settings written out (``for b, s
        in product(batch_sizes, seq_lens)``, gated_deltanet's benchmark, case 497): each pass is one configuration of
        the sweep, timed once. Empty otherwise."""
        if not (isinstance(loop.target, ast.Tuple) and isinstance(loop.iter, ast.Call) and loop.iter.args
                and self.names.qualname(loop.iter.func) == "itertools.product"):
            return []
        if not all(self._grid(a, loop) or self._written_out(a, loop) for a in loop.iter.args):
            return []
        return [n.id for n in loop.target.elts if isinstance(n, ast.Name)]

    def _built_from(self, loop: ast.For | ast.AsyncFor, name: str, site: ast.AST) -> set[str]:
        """The names the pass binds, before ``site``, to what a call makes of the loop variable ``name``: the input of
        each grid value (``ci_vals = jnp.linspace(35.0, 70.0, num=grid_sample)``, then ``measure_time(fn, ci_vals)``,
        climate_code_conversion's grid sweep, case 518), a new setting per value, not a counter."""
        found: set[str] = set()
        for node in walk_code(self.program, loop.body):
            if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call) or position(node) >= position(site):
                continue
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.value)):
                found |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        return found

    def _decorated_parameter(self, sites: list[ast.Name], positional: list[str]) -> str:
        """The parameter that receives the decorated function when every use of a function is a decorator applying it
        to a different function (``@benchit`` or ``@partial(benchit, "sum", 0)``, each over its own def, dex-lang's
        microbenchmarks, case 287): the function runs once per decorated function, so a timing in it takes one
        sample of each, as a sweep's pass does; ``""`` otherwise."""
        given: set[int] = set()
        for site in sites:
            holder = self.program.parent(site)
            if self.names.partial_target(holder) is site and isinstance(holder, ast.Call):
                if holder.keywords or any(isinstance(a, ast.Starred) for a in holder.args):
                    return ""
                index, node = len(holder.args) - 1, holder  # `partial(f, a, b)`: the decorated function comes third
            else:
                index, node = 0, site
            owner = self.program.parent(node)
            if not (isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(d is node for d in owner.decorator_list)):
                return ""
            given.add(index)
        if len(sites) < 2 or len(given) != 1:
            return ""
        index = given.pop()
        return positional[index] if index < len(positional) else ""

    def _written_out_grid(self, function: ast.AST, sites: list[ast.Name], positional: list[str]) -> set[str]:
        """The parameters for which the calls of ``function``, each run once (`Facts.differs_per_call`: not in a
        loop or a harness), pass each a different number (``timed(10000)``, ``timed(30000)``, ``timed(50000)``): a
        grid of values written out one call at a time, as ``for size in (10000, 30000): timed(size)`` runs it. A flag
        counts as such a value: ``run_estimate(N, T, jit_enabled=False)`` then ``jit_enabled=True`` times each
        setting once (case 310)."""
        numbers = set(positional)
        for site in sites:
            call = self.program.parent(site)
            if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args):
                return set()
            given = {positional[k]: a for k, a in enumerate(call.args[: len(positional)])}
            given |= {k.arg: k.value for k in call.keywords if k.arg is not None}
            numbers = {name for name in numbers if name in given
                       and (_number(given[name]) or _flag(given[name]) or _device_name(given[name]))}
        return {name for name in numbers if self.facts.differs_per_call(function, {name})}

    def _written_out_callables(self, function: ast.AST, sites: list[ast.Name], positional: list[str]) -> set[str]:
        """The parameter that the calls of ``function``, each run once (`Facts.differs_per_call`), hand a local
        function, two different ones at least, when the body calls it: ``time_func(numpy, "numpy")``,
        ``time_func(jax_jit, "jax_jit")`` (case 303). One call per function written out is one sample of each, as a
        loop over the functions takes it; a parameter called in the body is the work the timing holds."""
        if not self.facts.differs_per_call(function, set(positional)):
            return set()
        called = {
            n.func.id for n in walk_code(self.program, getattr(function, "body", []))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        candidates = [name for name in positional if name in called]
        handed: list[dict[str, ast.expr]] = []  # per call: parameter -> the value it is given
        for site in sites:
            call = self.program.parent(site)
            if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args):
                return set()
            given = {k.arg: k.value for k in call.keywords if k.arg is not None}
            given |= {positional[k]: a for k, a in enumerate(call.args[: len(positional)])}
            handed.append(given)
            candidates = [
                name for name in candidates
                if name in given and isinstance(given[name], ast.Name)
                and isinstance(self.facts.function_of(given[name]), (ast.FunctionDef, ast.AsyncFunctionDef))
            ]
        return {name for name in candidates if len({ast.dump(given[name]) for given in handed}) >= 2}

    def _grid(self, values: ast.AST, at: ast.AST, depth: int = 0) -> bool:
        """``values`` is a grid of parameter values: ``range`` with a step or from a start other than 0 or 1 (a
        counter starts there; ``range(30, 35)`` lists sizes), a literal of two numbers or more, NumPy's
        ``linspace``/``logspace``/``geomspace``, or a name bound to one of these."""
        if isinstance(values, ast.Name) and depth < 3:
            bound = self.facts.bindings.values_at(values.id, at)
            return bool(bound) and all(self._grid(v, at, depth + 1) for v in bound)
        if isinstance(values, (ast.List, ast.Tuple, ast.Set)):  # distinct: `[5, 8, 10, 10, 10]` comes back to 10
            numbers = [e for e in values.elts if _number(e)]
            return len(numbers) == len(values.elts) >= 2 and len({ast.dump(e) for e in numbers}) == len(numbers)
        if isinstance(values, ast.Call):
            qualified = self.names.qualname(values.func) or ""
            if qualified == "builtins.range":
                start = values.args[0] if len(values.args) >= 2 else None
                return len(values.args) == 3 or (_number(start) and getattr(start, "value", 0) not in (0, 1))
            return qualified.rsplit(".", 1)[-1] in _GRIDS and qualified.split(".", 1)[0] in ("numpy", "jax")
        return False

    def _pair_samples(self, start: ast.stmt, scope: ast.AST | None, statements: tuple[ast.stmt, ...]) -> str:
        """How many runs a clock pair's one interval holds: one per iteration of a loop around the pair, a total
        over a loop inside it (``averaged``), one run, or ``unknown`` in a function called from several places."""
        if self._repeated(start, scope):
            return "per-iteration"
        if any(isinstance(n, (*LOOPS, *COMPREHENSIONS)) for n in walk_code(self.program, list(statements))):
            return "averaged"
        if scope is not None and not self._runs_once(scope):
            return "unknown"
        return "single"

    def _runs_once(self, scope: ast.AST) -> bool:
        """The function ``scope`` is called from one place: by its name, or, for a method of a local class called
        by no bare name, once through an instance (``runner.bench(x)``). A module-level function the file never
        names and leaves undecorated is an entry point (a test a runner calls, a script's ``run_test_1(args)``
        started from elsewhere): each run of it is one call, and what it times between two clock reads is one sample
        (case 424). A decorator may call it any number of times (jaxley's ``@compare_to_baseline(baseline_iters=3)``,
        pytest's ``parametrize``): then how often is not known."""
        sites = self.facts.call_sites(scope)
        if sites:
            return len(sites) == 1
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and all(self._registers_a_remote_run(d) for d in scope.decorator_list) \
                and self.program.parent(scope) is self.program.module:
            return True
        return self.facts.runs_once_through_an_instance(scope)

    def _registers_a_remote_run(self, decorator: ast.expr) -> bool:
        """``@app.function(gpu="A100")`` (or ``@app.local_entrypoint()``, ``@app.cls``) of ``app = modal.App(...)``:
        the decorator registers the function to run on Modal, once per ``.remote()`` call, and calls it no more than
        that; a function it decorates and the file never names is an entry point, as an undecorated one is (Krapu's
        'Poverty Bayes' post, ``fit_hierarchical_logistic`` timing one ``pm.sample``, case 429)."""
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if not (isinstance(target, ast.Attribute) and target.attr in _MODAL_REGISTRARS
                and isinstance(target.value, ast.Name)):
            return False
        name = target.value.id
        return any(
            isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
            and isinstance(stmt.value, ast.Call) and self.names.qualname(stmt.value.func) in _MODAL_APPS
            for stmt in self.program.module.body
        )

    def _unused_clock_pair(self, block: list[ast.stmt], i: int, var: str, clock_call: ast.Call) -> TimedRegion | None:
        """``start = time.time()`` ... ``end = time.time()`` with the difference left out of the snippet."""
        for k in range(i + 1, len(block)):
            found = self._clock_assignment(block[k])
            if found is None:
                continue
            statements = tuple(block[i + 1 : k])
            if found[0] == var or not statements or any(
                isinstance(n, ast.Name) and n.id == var for s in statements for n in ast.walk(s)
            ):
                return None
            if self._overwritten_unread(block, k, var) and self._overwritten_unread(block, k, found[0]) \
                    and self._subtracted_later(block, k, var):
                return None  # both readings replaced before anything reads them: a warm-up, no figure (case 398)
            scope = enclosing_function(self.program, block[i])
            if self._through_helper(clock_call) or self._through_helper(found[1]):
                return None
            return TimedRegion(
                label=f"{self.names.qualname(clock_call.func)}() pair",
                anchor=clock_call,
                statements=statements,
                work=statements,
                scope=scope,
                start=position(block[i]),
                samples=self._pair_samples(block[i], scope, statements),  # read as when the difference is written
                clocks=tuple(dict.fromkeys([self.names.qualname(clock_call.func) or "", self.names.qualname(found[1].func) or ""])),
                clock_node=clock_call,
            )
        return None

    def _overwritten_unread(self, block: list[ast.stmt], k: int, var: str) -> bool:
        """The clock reading held by ``var`` is replaced, later in ``block``, by another clock read into the same name
        before any statement reads it: Craftax's speed test times its scan once as a warm-up between ``t0`` and
        ``t1``, then overwrites both by the reported pair, so no interval is ever taken from the first (case 398).
        A pair whose readings the snippet simply stops using is still a timing left unfinished, not this."""
        for j in self.program.statements_mentioning(block, k, var):
            restart = self._clock_assignment(block[j])
            return restart is not None and restart[0] == var and not any(
                isinstance(n, ast.Name) and n.id == var and isinstance(n.ctx, ast.Load) for n in ast.walk(block[j]))
        return False

    def _subtracted_later(self, block: list[ast.stmt], k: int, var: str) -> bool:
        """A later statement of ``block`` takes an interval from ``var`` (``print(... / (t1 - t0))``): the code reads
        its readings, just not the first pair's. A snippet that never subtracts them (two pairs shown one after
        the other, their prints left out, case 026) leaves each pair a timing."""
        return any(_subtraction_from(self.program, block[j], var) is not None
                   for j in self.program.statements_mentioning(block, k, var))

    # --- stopwatches -------------------------------------------------------------------------
    def stopwatch_pairs(self) -> Iterator[TimedRegion]:
        """``qe.tic()`` ... ``t = qe.toc()``: the statements between the start and the first read in the same block are
        timed. A second start before any read replaces the first; a read inside a compound statement is left alone."""
        for stmt in self.program.of_type(ast.Expr):
            if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)) or not self._starts_stopwatch(stmt.value):
                continue
            found = self.program.statement_list(stmt)
            if found is None:
                continue
            block, i = found
            region = self._stopwatch_region(block, i, stmt.value)
            if region is not None:
                yield region

    def _starts_stopwatch(self, call: ast.Call) -> bool:
        return not call.args and self.names.qualname(call.func) in STOPWATCH_STARTS

    def _reads_stopwatch(self, call: ast.AST) -> bool:
        return isinstance(call, ast.Call) and self.names.qualname(call.func) in STOPWATCH_READS

    def _stopwatch_region(self, block: list[ast.stmt], i: int, start: ast.Call) -> TimedRegion | None:
        for j in range(i + 1, len(block)):
            stmt = block[j]
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and self._starts_stopwatch(stmt.value):
                return None  # started again before it was read: the later start times the code
            read = next((n for n in self.program.walk(stmt) if self._reads_stopwatch(n)), None)
            if read is None:
                continue
            if isinstance(stmt, _COMPOUND):
                return None
            statements = tuple(block[i + 1 : j])
            if not statements:
                return None
            scope = enclosing_function(self.program, block[i])
            if self._repeated(block[i], scope):
                samples = "per-iteration"
            elif any(isinstance(n, (*LOOPS, *COMPREHENSIONS)) for n in walk_code(self.program, list(statements))):
                samples = "averaged"
            elif scope is not None and not self._runs_once(scope):
                samples = "unknown"
            else:
                samples = "single"
            before_clock = tuple(
                n for n in self.program.walk(stmt) if isinstance(n, ast.Call) and _ends_before(n, read)
            )
            return TimedRegion(
                label=f"{dotted(start.func)}() pair",
                anchor=start,
                statements=statements,
                work=statements,
                scope=scope,
                start=position(block[i]),
                samples=samples,
                clocks=(self.names.qualname(start.func) or "",),
                before_clock=before_clock,
                closing=stmt,
                swept=self._swept(block[i], statements) if samples == "per-iteration" else "",
            )
        return None

    # --- IPython magics ----------------------------------------------------------------------
    def magics(self) -> Iterator[TimedRegion]:
        for node in self.program.of_type(ast.With):
            magic = self.program.magic(node)
            if magic is None or magic.name not in ("time", "timeit") or not isinstance(node, ast.With):
                continue
            statements = tuple(s for s in node.body if not isinstance(s, ast.Pass))
            if not statements:
                continue
            setup = self._same_line_siblings(node)
            in_loop = enclosing_loop(self.program, node) is not None
            if magic.name == "time":
                samples = "per-iteration" if in_loop else "single"
            else:
                samples = "single" if magic.once else "averaged" if magic.number_given else "repeated"
            yield TimedRegion(
                label=f"%{magic.name}",
                anchor=statements[0],
                statements=statements,
                work=tuple(_harness_work(statements)),
                scope=enclosing_function(self.program, node),
                start=position(node),
                samples=samples,
                calibrated=magic.name == "timeit" and (not magic.number_given or self._best_kept(node, magic)),
                setup=setup,
                harness=True,
            )

    def _same_line_siblings(self, node: ast.With) -> tuple[ast.stmt, ...]:
        """The statements beside a magic's block on its line (``%%timeit`` setup code), from its neighbours."""
        parent = self.program.parent(node)
        siblings = getattr(parent, "body", []) if parent is not None else []
        found = self.program.statement_list(node)
        if found is None or found[0] is not siblings:
            return tuple(s for s in siblings if s is not node and getattr(s, "lineno", 0) == node.lineno)
        block, k = found
        first, last = k, k + 1
        while first > 0 and getattr(block[first - 1], "lineno", 0) == node.lineno:
            first -= 1
        while last < len(block) and getattr(block[last], "lineno", 0) == node.lineno:
            last += 1
        return tuple(s for s in block[first:last] if s is not node)

    # --- timeit, torch.utils.benchmark.Timer, pytest-benchmark ------------------------------
    def harness_calls(self) -> Iterator[TimedRegion]:
        for node in self.program.of_type(ast.Call):
            if not isinstance(node, ast.Call):
                continue
            qualified = self.names.qualname(node.func)
            if qualified in ("timeit.timeit", "timeit.repeat", "timeit.Timer"):
                region = self._timeit(node, qualified)
            elif qualified in ("torch.utils.benchmark.Timer", "torch.utils.benchmark.utils.timer.Timer"):
                region = self._torch_timer(node)
            elif self.facts.is_benchmark_fixture(node):
                region = self._benchmark_fixture(node)
            else:
                region = None
            if region is not None:
                yield region

    def _timeit(self, call: ast.Call, qualified: str) -> TimedRegion | None:
        stmt = argument(call, 0, "stmt")
        setup = argument(call, 1, "setup")
        if stmt is None:
            return None
        statements, work = self._timed_argument(stmt)
        if not work:
            return None
        number = _constant_int(argument(call, 3 if qualified == "timeit.timeit" else 4, "number"))
        repeat = _constant_int(argument(call, 3, "repeat")) if qualified == "timeit.repeat" else 1
        samples = "single" if number == 1 and repeat in (1, None) and qualified != "timeit.Timer" else "averaged"
        if number == 1 and qualified == "timeit.repeat":
            samples = "per-iteration"
        scope = enclosing_function(self.program, call)
        swept = ""
        if samples == "single" and self._repeated(call, scope):
            samples = "per-iteration"  # one run per call, but the call itself is repeated: as a clock pair there
            swept = self._swept(call, work)  # ... and, as there, a sweep still takes one sample per value
        elif samples == "single" and scope is not None and not self._runs_once(scope):
            samples = "unknown"  # a function called from several places (`_pair_samples`): how often is not known
        return TimedRegion(
            label=qualified,
            anchor=call,
            statements=statements,
            work=work,
            scope=enclosing_function(self.program, call),
            start=position(call),
            samples=samples,
            setup=(*self._setup(setup), *self._bound_before(stmt)),
            harness=True,
            calibrated=qualified == "timeit.repeat" and repeat != 1 and self._best_of(call),
            swept=swept,
        )

    def _best_kept(self, node: ast.With, magic: Magic) -> bool:
        """``%timeit -o -n N``, whose result is kept by name (``res = %timeit -o ...``, or ``res = _`` right after
        it) and read only for its ``.best``: the best of its repeats, so the first repeat's compile is never the
        figure (probml's 'Yet another JAX tutorial', case 487; 148's reading of a best-of figure). One repeat
        (``-r 1``) has no other to be best of."""
        if not magic.output or magic.repeats == 1:
            return False
        names = {magic.bound} if magic.bound else set()
        held = self.program.statement_list(node)
        if not names and held is not None and held[1] + 1 < len(held[0]):
            after = held[0][held[1] + 1]
            if (isinstance(after, ast.Assign) and len(after.targets) == 1 and isinstance(after.targets[0], ast.Name)
                    and isinstance(after.value, ast.Name) and after.value.id == "_"):
                names = {after.targets[0].id}
        if not names:
            return False
        reads = [n for n in self.program.of_type(ast.Name) if isinstance(n, ast.Name) and n.id in names
                 and isinstance(n.ctx, ast.Load)]
        return bool(reads) and all(
            isinstance(parent := self.program.parent(n), ast.Attribute) and parent.attr == "best" for n in reads
        )

    def _best_of(self, call: ast.Call) -> bool:
        """``min(timeit.repeat(...))``: the best of the repeats, so the first one's compile is never the result."""
        parent = self.program.parent(call)
        return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "min"
                and parent.args[:1] == [call])

    def _torch_timer(self, call: ast.Call) -> TimedRegion | None:
        stmt = argument(call, 0, "stmt")
        if stmt is None:
            return None
        statements, work = self._timed_argument(stmt)
        if not work:
            return None
        return TimedRegion(
            label="torch.utils.benchmark.Timer",
            anchor=call,
            statements=statements,
            work=work,
            scope=enclosing_function(self.program, call),
            start=position(call),
            samples="repeated",
            calibrated=True,
            setup=(*self._setup(argument(call, 1, "setup")), *self._bound_before(stmt)),
            synchronizes=True,
            harness=True,
        )

    def _benchmark_fixture(self, call: ast.Call) -> TimedRegion:
        target = call.args[0]
        if isinstance(call.func, ast.Attribute):  # benchmark.pedantic(f, args=(...), kwargs={...})
            args_node = argument(call, 1, "args")
            args = list(args_node.elts) if isinstance(args_node, ast.Tuple) else []
        else:
            args = list(call.args[1:])
        synth = ast.copy_location(ast.Call(func=target, args=args, keywords=[]), call)
        # `benchmark(lambda: f(x))` runs the lambda's body, as timeit's `stmt` does
        work = (target.body,) if isinstance(target, ast.Lambda) and not args else (synth,)
        return TimedRegion(
            label="benchmark fixture",
            anchor=call,
            statements=(synth,),
            work=work,
            scope=enclosing_function(self.program, call),
            start=position(call),
            samples="repeated",
            calibrated=True,
            harness=True,
        )

    def _timed_argument(self, stmt: ast.AST) -> tuple[tuple[ast.AST, ...], tuple[ast.AST, ...]]:
        """(statements as written, work that runs) for timeit's ``stmt`` argument."""
        if isinstance(stmt, ast.Lambda):
            body = stmt.body  # `lambda: run()`, `run` bound to a lambda: what `run` runs
            bound = self._bound_lambda(body.func) if isinstance(body, ast.Call) and not body.args else None
            return (stmt,), ((bound.body if bound is not None else body),)
        if isinstance(stmt, ast.Constant) and isinstance(stmt.value, str):
            parsed = _parse_string(stmt)
            return parsed, tuple(_harness_work(parsed))
        bound = self._bound_lambda(stmt)  # `run = lambda: f(a)` ... `timeit.timeit(run, number=1)`: the lambda's body
        if bound is not None:
            return (stmt,), (bound.body,)
        if isinstance(stmt, (ast.Name, ast.Attribute)):
            return (stmt,), (ast.copy_location(ast.Call(func=stmt, args=[], keywords=[]), stmt),)
        bound = self.names.partial_target(stmt)
        if bound is not None and isinstance(stmt, ast.Call):  # `partial(f, a)` runs `f(a)`
            synth = ast.Call(func=bound, args=list(stmt.args[1:]), keywords=list(stmt.keywords))
            return (stmt,), (ast.copy_location(synth, stmt),)
        return (), ()

    def _bound_before(self, stmt: ast.AST) -> tuple[ast.AST, ...]:
        """The arguments a ``functools.partial`` handed to a harness binds: Python evaluates them once, when it builds
        the partial, before the harness starts its clock (``timeit.timeit(partial(f, jnp.array(xs)), number=100)``
        times ``f``, not the copy of ``xs``). The call `_timed_argument` builds keeps them, for what its signature
        says; they run untimed, as set-up."""
        if self.names.partial_target(stmt) is None or not isinstance(stmt, ast.Call):
            return ()
        return (*stmt.args[1:], *(k.value for k in stmt.keywords))

    def _bound_lambda(self, node: ast.AST) -> ast.Lambda | None:
        """The lambda without parameters a name is bound to, its one binding in scope; None otherwise."""
        if not isinstance(node, ast.Name):
            return None
        bound = self.facts.bindings.values_at(node.id, node)
        return bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Lambda) and not _parameters(bound[0]) else None

    def _setup(self, setup: ast.AST | None) -> tuple[ast.AST, ...]:
        if setup is None:
            return ()
        if isinstance(setup, ast.Constant) and isinstance(setup.value, str):
            return _parse_string(setup)
        written = self._string_returned(setup)
        if written is not None:  # `setup=setup_code()`, a local function returning the setup string (case 468)
            return _parse_string(written)
        if isinstance(setup, ast.Lambda):
            return (setup.body,)
        return (ast.copy_location(ast.Call(func=setup, args=[], keywords=[]), setup),)

    def _string_returned(self, setup: ast.AST) -> ast.Constant | None:
        """The one string a call of a local function with no arguments returns (``def setup_code(): return '''...'''``,
        then ``timeit.timeit(stmt, setup=setup_code(), number=1000)``, fenbux#7): timeit runs that text as set-up."""
        if not (isinstance(setup, ast.Call) and not setup.args and not setup.keywords):
            return None
        function = self.facts.local_def(setup)
        if function is None or isinstance(function, ast.Lambda):
            return None
        returns = [n.value for n in ast.walk(function) if isinstance(n, ast.Return)]
        if len(returns) != 1 or not (isinstance(returns[0], ast.Constant) and isinstance(returns[0].value, str)):
            return None
        return returns[0]

    # --- with Timer(): -----------------------------------------------------------------------
    def timer_blocks(self) -> Iterator[TimedRegion]:
        for node in self.program.of_type(ast.With, ast.AsyncWith):
            if not isinstance(node, (ast.With, ast.AsyncWith)) or self.program.magic(node) is not None:
                continue
            for item in node.items:
                expr = item.context_expr
                callee = expr.func if isinstance(expr, ast.Call) else expr
                if self._times_its_body(callee, node):
                    in_loop = enclosing_loop(self.program, node) is not None
                    looped = any(isinstance(n, (*LOOPS, *COMPREHENSIONS)) for n in walk_code(self.program, node.body))
                    yield TimedRegion(
                        label=f"with {ast.unparse(expr)}",
                        anchor=expr,
                        statements=tuple(node.body),
                        work=tuple(node.body),
                        scope=enclosing_function(self.program, node),
                        start=position(node),
                        # a loop inside: a total over it, as a clock pair around a loop is
                        samples="per-iteration" if in_loop else "averaged" if looped else "single",
                    )
                    break

    def _times_its_body(self, callee: ast.AST, at: ast.AST, depth: int = 0) -> bool:
        """``with callee(...):`` times its body: a timer by name (``Timer``, ``timing``), a local class whose
        ``__enter__`` and ``__exit__`` both read a clock, or a local ``@contextlib.contextmanager`` generator that
        yields between two clock reads or inside a ``with`` that times (``with timer: yield timer``)."""
        name = dotted(callee) or ""
        if _TIMER_NAMES.match(name.rsplit(".", 1)[-1]):
            return True
        if depth > 3 or not isinstance(callee, ast.Name):
            return False
        cls = self.facts.classes.get(callee.id)
        if cls is not None:
            methods = {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
            return all(
                m in methods and any(self._reads_clock(n) for n in ast.walk(methods[m])) for m in ("__enter__", "__exit__")
            )
        function = self.facts.def_named(callee.id, at)
        if function is None or not any(
            self.names.qualname(d) in _CONTEXT_MANAGERS for d in getattr(function, "decorator_list", ())
        ):
            return False
        nodes = list(walk_code(self.program, function.body))
        yields = [n for n in nodes if isinstance(n, (ast.Yield, ast.YieldFrom))]
        reads = [position(n) for n in nodes if self._reads_clock(n)]
        for found in yields:
            where = position(found)
            if any(r < where for r in reads) and any(r > where for r in reads):
                return True
            for outer in self.program.ancestors(found):
                if outer is function:
                    break
                if isinstance(outer, (ast.With, ast.AsyncWith)) and any(
                    self._times_its_body(i.context_expr.func if isinstance(i.context_expr, ast.Call) else i.context_expr,
                                         outer, depth + 1)
                    for i in outer.items
                ):
                    return True
        return False

    def _reads_clock(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and self.names.qualname(node.func) in CLOCKS

    # --- google_benchmark ----------------------------------------------------------------------
    def state_loops(self) -> Iterator[TimedRegion]:
        """The ``while state:`` loop of a google_benchmark function: the library times its body, running it as many
        times as it takes to measure (after calibration runs it does not report: no cold first call)."""
        registered = self._google_benchmarks()
        for function in registered:
            args = function.args
            state = next((a.arg for a in [*args.posonlyargs, *args.args] if a.arg == "state"), None)
            if state is None:
                continue
            for loop in walk_code(self.program, function.body):
                if isinstance(loop, (*LOOPS,)) and _runs_state(loop, state) and loop.body:
                    yield TimedRegion(
                        label="google_benchmark state loop",
                        anchor=loop,
                        statements=tuple(loop.body),
                        work=tuple(loop.body),
                        scope=function,
                        start=position(loop),
                        samples="repeated",
                        calibrated=True,
                        harness=True,
                    )

    # --- harnesses that time a whole method: asv, benchopt ---------------------------------------------------
    def asv_methods(self) -> Iterator[TimedRegion]:
        """The ``time_*`` methods asv times (`asv_timed`): the whole body, called until asv has its samples, after
        warm-up calls it does not report (no cold first call), the result thrown away. Nothing waits for JAX work the
        body leaves queued (case 300)."""
        return self._timed_methods("asv time_ method", lambda f: asv_timed(self.program, f), calibrated=True)

    def benchopt_runs(self) -> Iterator[TimedRegion]:
        """A benchopt solver's ``run`` (`benchopt_timed`): benchopt reads ``perf_counter`` around the call alone, after
        ``pre_run_hook`` and before ``get_result``, once for each budget, so JAX work ``run`` stores unwaited
        (``self.out = self._solve(x)``) is waited for in ``get_result``, after the clock stops (case 356). benchopt
        does not warm it: not calibrated."""
        return self._timed_methods("benchopt run", lambda f: benchopt_timed(self.facts, f), calibrated=False)

    def _timed_methods(
        self, label: str, timed: Callable[[ast.AST], bool], *, calibrated: bool
    ) -> Iterator[TimedRegion]:
        """Each function a harness times whole (``timed``), its body (docstring left out) one region of repeated
        samples."""
        for function in self.program.of_type(ast.FunctionDef, ast.AsyncFunctionDef):
            body = [s for s in function.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            if body and timed(function):
                yield TimedRegion(
                    label=label,
                    anchor=function,
                    statements=tuple(body),
                    work=tuple(body),
                    scope=function,
                    start=position(body[0]),
                    samples="repeated",
                    calibrated=calibrated,
                    harness=True,
                )

    def _google_benchmarks(self) -> list[ast.AST]:
        """Functions handed to ``google_benchmark.register``, as its decorator or its argument (``partial(f, ...)``
        too)."""
        found: list[ast.AST] = []
        for function in self.program.of_type(ast.FunctionDef):
            if any(self._is_register(d.func if isinstance(d, ast.Call) else d) or self._registering_decorator(d)
                   for d in function.decorator_list):
                found.append(function)
        for call in self.program.of_type(ast.Call):
            if isinstance(call, ast.Call) and self._is_register(call.func) and call.args:
                target = self.names.partial_target(call.args[0]) or call.args[0]  # `register(partial(f, ...))`: f
                function = self.facts.def_named(target.id, call) if isinstance(target, ast.Name) else None
                if function is not None and function not in found:
                    found.append(function)
        return found

    def _is_register(self, func: ast.AST) -> bool:
        return self.names.qualname(func) in ("google_benchmark.register", "google_benchmark.option")

    def _registering_decorator(self, decorator: ast.expr) -> bool:
        """``decorator`` is a local decorator, or a call of a local decorator factory, whose code registers with
        google_benchmark (JAX's ``math_benchmark.py``: ``@math_benchmark([...])`` registers, per test case, a
        ``wrapper(state)`` that calls the decorated function with ``state``, case 365): the function it decorates
        is what the registered benchmark runs, its ``while state:`` loop the timed one."""
        maker = decorator.func if isinstance(decorator, ast.Call) else decorator
        local = self.facts.def_named(maker.id, decorator) if isinstance(maker, ast.Name) else None
        if not isinstance(local, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        return any(isinstance(n, (ast.Name, ast.Attribute)) and self._is_register(n) for n in ast.walk(local))


def entry_clock(program: Program, facts: Facts, region: TimedRegion) -> ast.Call | None:
    """The clock read that starts a ``with`` timer block whose timer the file defines: the first clock call in the
    ``__enter__`` of the local class it makes (``with Timer() as t:`` of pips-jax's ``class Timer`` reading
    ``time.time()`` in ``__enter__`` and ``__exit__``, case 475), or before the ``yield`` of a local
    ``@contextlib.contextmanager`` generator. None for a timer from a library, whose clock is not in the file. The
    read belongs to the timer, not to the block: it is one node however many blocks use it."""
    if not region.timer_block or not isinstance(region.anchor, ast.expr):
        return None
    callee = region.anchor.func if isinstance(region.anchor, ast.Call) else region.anchor
    if not isinstance(callee, ast.Name):
        return None
    names = facts.names
    cls = facts.classes.get(callee.id)
    if cls is not None:
        enter = next((m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and m.name in ("__enter__", "__aenter__")), None)
        body: list[ast.AST] = list(walk_code(program, enter.body)) if enter is not None else []
    else:
        function = facts.def_named(callee.id, region.anchor)
        if function is None or not any(names.qualname(d) in _CONTEXT_MANAGERS
                                       for d in getattr(function, "decorator_list", ())):
            return None
        nodes = list(walk_code(program, function.body))
        yields = [position(n) for n in nodes if isinstance(n, (ast.Yield, ast.YieldFrom))]
        body = [n for n in nodes if yields and position(n) < min(yields)]
    reads = [n for n in body if isinstance(n, ast.Call) and names.qualname(n.func) in CLOCKS]
    return min(reads, key=position) if reads else None


def _runs_state(loop: ast.AST, state: str) -> bool:
    """``while state:``, ``while state.KeepRunning():`` or ``for _ in state:``: the benchmark's timed loop."""
    if isinstance(loop, ast.While):
        test = loop.test.func if isinstance(loop.test, ast.Call) and not loop.test.args else loop.test
        if isinstance(test, ast.Attribute) and test.attr == "KeepRunning":
            test = test.value
        return isinstance(test, ast.Name) and test.id == state
    return isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.iter, ast.Name) and loop.iter.id == state


def _subtraction_from(program: Program, stmt: ast.AST, var: str) -> ast.BinOp | None:
    """``<something> - var`` anywhere in ``stmt``."""
    for node in program.walk(stmt):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
            if isinstance(node.right, ast.Name) and node.right.id == var:
                return node
    return None


def _ends_before(node: ast.AST, other: ast.AST) -> bool:
    end = (getattr(node, "end_lineno", None) or 0, getattr(node, "end_col_offset", None) or 0)
    return end <= position(other)


def _harness_work(statements: tuple[ast.AST, ...] | list[ast.AST]) -> Iterator[ast.AST]:
    """What a harness runs: an expression statement that is a lambda runs nothing, so look at its body."""
    for stmt in statements:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Lambda):
            yield stmt.value.body
        else:
            yield stmt


def _parse_string(constant: ast.Constant) -> tuple[ast.AST, ...]:
    """A statement string (timeit's ``stmt``) as statements, all located at the string."""
    try:
        tree = ast.parse(textwrap.dedent(str(constant.value)).strip())
    except SyntaxError:
        return ()
    for node in ast.walk(tree):
        if hasattr(node, "lineno"):
            ast.copy_location(node, constant)
    return tuple(tree.body)


def _parameters(function: ast.Lambda) -> list[ast.arg]:
    args = function.args
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *([args.vararg] if args.vararg else [])]


def _is_name(node: ast.AST, *names: str) -> bool:
    return isinstance(node, ast.Name) and node.id in names


def _constant_int(node: ast.AST | None) -> int | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, int) else None


def reported_at(program: Program, region: TimedRegion) -> list[int]:
    """The lines that report a clock pair's interval when its closing statement keeps it under a name
    (``first_t = time.perf_counter() - beg``): the later statements of the same function that read the name
    (``state.counters['jit_time'] = first_t - op_time``). What the figure is reported as says what was timed. When
    the second read is a statement of its own, the subtraction's lines (``first_call = t1 - t0``) are a report too.
    """
    closing = region.closing
    subtracted = region.subtraction_lines()
    if closing is None and isinstance(region.anchor, ast.Call) and region.label.startswith("timeit."):
        closing = _keeping(program, region.anchor)  # `first_t = timeit.timeit(run, number=1)`
    if not (isinstance(closing, ast.Assign) and len(closing.targets) == 1 and isinstance(closing.targets[0], ast.Name)):
        return subtracted
    name = closing.targets[0].id
    scope = enclosing_function(program, closing)
    body = walk_code(program, scope.body if scope is not None else program.module.body)
    after = position(closing)
    return sorted({
        *subtracted,
        *(n.lineno for n in body
          if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and position(n) > after
          and not _one_of_several(program, n)),
    })


def _one_of_several(program: Program, name: ast.Name) -> bool:
    """``name`` is one element of a tuple or list that holds other values too (``return jit_time, run_time``): the
    line hands on several figures at once, and its words (another figure's name) say nothing of this one (MJX's
    ``testspeed.py``, case 455, whose 'run_time' pair is not the 'jit_time' compile timed just before it)."""
    parent = program.parent(name)
    return isinstance(parent, (ast.Tuple, ast.List)) and len(parent.elts) > 1


def _keeping(program: Program, call: ast.Call) -> ast.AST | None:
    """The statement that keeps the figure a harness call returns: ``t = timeit.timeit(...)``, or
    ``t = timeit.Timer(...).timeit(number=1)`` (the figure is the method's)."""
    node: ast.AST = call
    parent = program.parent(node)
    if isinstance(parent, ast.Attribute) and parent.attr in ("timeit", "repeat"):
        method = program.parent(parent)
        if isinstance(method, ast.Call) and method.func is parent:
            node, parent = method, program.parent(method)
    return parent if isinstance(parent, ast.Assign) and parent.value is node else None


def _timing_wrapper(program: Program, region: TimedRegion) -> tuple[FunctionNode, FunctionNode, str] | None:
    """(wrapper, decorator, the decorator's parameter) when ``region`` is a clock pair in the wrapper of a local
    one-parameter decorator (``def timed(fn): def _timer(*a): start = ...; fn(*a); end = ...``, ``return
    _timer``) around a call of that parameter."""
    wrapper = region.scope
    decorator = enclosing_function(program, wrapper) if wrapper is not None else None
    if not isinstance(wrapper, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(
        decorator, (ast.FunctionDef, ast.AsyncFunctionDef)
    ) or not region.clocks:
        return None
    handed = [a.arg for a in [*decorator.args.posonlyargs, *decorator.args.args]]
    returned = [s.value for s in decorator.body if isinstance(s, ast.Return)]
    if len(handed) != 1 or not any(isinstance(v, ast.Name) and v.id == wrapper.name for v in returned):
        return None
    if not any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == handed[0]
               for c in walk_code(program, list(region.work))):
        return None
    return wrapper, decorator, handed[0]


def decorated_bodies(program: Program, facts: Facts, region: TimedRegion) -> list[FunctionNode]:
    """The functions whose bodies a timing decorator's clock pair times (``region``, see `_timing_wrapper`): each
    function decorated with it (``@timed def time_torch(...)``) runs between the reads each time it is called.
    Each is a timed body of its own: what one of them does (a backward pass) says nothing of another."""
    found = _timing_wrapper(program, region)
    if found is None:
        return []
    decorator = found[1]
    return [
        decorated for site in facts.call_sites(decorator)
        if isinstance(decorated := program.parent(site), (ast.FunctionDef, ast.AsyncFunctionDef))
        and site in decorated.decorator_list
    ]


def decorated_timings(program: Program, facts: Facts, region: TimedRegion) -> list[ast.Call]:
    """The calls a timing decorator turns into samples, when its wrapper returns a reading, not the result. Each
    call of a function it decorates (`decorated_bodies`, ``@timed def time_jax(...)``) whose figure is kept (``t =
    time_jax(...)``) is one run between two clock reads, one sample (diffrax's small_neural_ode.py, case 271). A
    call whose figure is thrown away (a warm-up) is no timing, one in a loop gives a figure per pass, and the
    wrapper's own clock pair stays the region other rules look in."""
    found = _timing_wrapper(program, region)
    if found is None:
        return []
    wrapper, _, handed = found
    answers = [n.value for n in ast.walk(wrapper) if isinstance(n, ast.Return) and n.value is not None]
    if not answers or any(_returns_the_result(wrapper, a, {handed}) for a in answers):
        return []  # the wrapper hands back what the function returns: the figure goes elsewhere (a log line)
    calls: list[ast.Call] = []
    for decorated in decorated_bodies(program, facts, region):
        for use in facts.call_sites(decorated):
            call = program.parent(use)
            if (isinstance(call, ast.Call) and call.func is use and not isinstance(program.parent(call), ast.Expr)
                    and enclosing_loop(program, call) is None):  # in a loop: one figure per pass, a series
                calls.append(call)
    return sorted(calls, key=position)


def _returns_the_result(wrapper: ast.AST, value: ast.expr, handed: set[str]) -> bool:
    """``return fn(*args)`` or ``result = fn(*args)`` ... ``return result``: the wrapper's answer is the function's,
    not a clock reading."""
    def runs_handed(v: ast.AST) -> bool:
        return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in handed

    if isinstance(value, ast.Name):
        return any(
            runs_handed(n.value) for n in ast.walk(wrapper) if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == value.id for t in n.targets)
        )
    return not isinstance(value, ast.BinOp) or runs_handed(value)
