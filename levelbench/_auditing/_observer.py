"""What ``doctor --run`` watches inside the child process that runs the user's script.

Every clock the script may read is replaced by a wrapper that returns the same value, as a `float`
(or `int`, or `datetime`) subclass that remembers which read it came from. When the script subtracts
two such readings (``time.perf_counter() - t0``), the pair is recorded: that difference is what the
script measured, so intervals are the pairs the script itself computed, whatever their shape
(a loop, a helper function, ``timeit``'s template).

At each read of the user's own file, after the clock value is taken, the JAX arrays still computing
are handed to a thread that waits for them and records when they finished: the work the clock did
not see. The script does not wait for them, so its own figures are those it would get alone. JAX's compile events
(``jax.monitoring``) are recorded with their end time on the same reference clock. Reads made by
libraries (jax reads ``time.time`` to time its own compilation) are passed through untouched.

Stdlib only at import time: jax is hooked when (if) the script imports it.
"""

from __future__ import annotations

import datetime as _datetime
import importlib.abc
import queue
import sys
import threading
import time
import timeit
from typing import Any

from ._dispatch import DispatchCounter
from ._torch import TorchCalls

_perf_ns = time.perf_counter_ns  # the reference clock, before any patching

TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"
LOWER_EVENT = "/jax/core/compile/jaxpr_to_mlir_module_duration"
BACKEND_EVENT = "/jax/core/compile/backend_compile_duration"
COMPILE_EVENTS = {TRACE_EVENT: "tracing", LOWER_EVENT: "lowering", BACKEND_EVENT: "XLA compilation"}

CLOCKS = ("time", "perf_counter", "monotonic", "process_time",
          "time_ns", "perf_counter_ns", "monotonic_ns", "process_time_ns")
MAX_READS = 1_000_000
"""Clock reads recorded at most (~100 MB): a script that reads a clock in a hot loop keeps running at its speed."""
REF, LINE, CLOCK, VIA_TIMEIT, PENDING, PENDING_ARRAYS, GRAD, VALUE, MAGIC, COUNTS = range(10)
"""The fields of a recorded read: its time on the reference clock (ns), the line, the clock's name, whether
through timeit, seconds from it until the JAX work running at it finished, how many arrays that was, torch's
grad mode, the value the script got (seconds), the IPython magic that read it (``time``, ``timeit``; ``benchmark``
for pytest-benchmark's fixture; ""), and
the dispatch and transfer counters then (`_dispatch`; [] before jax is imported)."""
_TIMEIT_FILES = {"<timeit-src>", "<magic-timeit>", timeit.__file__}
_MAGICS_FILE = ("IPython", "core", "magics", "execution.py")  # %time, %timeit: they read the clocks for the cell
_MAGICS_SUFFIXES = ("/".join(_MAGICS_FILE), "\\".join(_MAGICS_FILE))


_BENCHMARK_FILE = ("pytest_benchmark", "fixture.py")  # pytest-benchmark's `benchmark` fixture reads the clock
_BENCHMARK_SUFFIXES = ("/".join(_BENCHMARK_FILE), "\\".join(_BENCHMARK_FILE))


def _in_magics(filename: str) -> bool:
    return filename.endswith(_MAGICS_SUFFIXES)


def _harness(filename: str) -> bool:
    """A file whose clock reads time the statement the script gave it: timeit's, pytest-benchmark's fixture."""
    return filename in _TIMEIT_FILES or filename.endswith(_BENCHMARK_SUFFIXES)


class Observer:
    """The raw observations of one run, in plain data (sent to the parent as JSON)."""

    def __init__(self, script: str) -> None:
        self.script = script
        # fields: REF, LINE, ... COUNTS; tuples of plain values, which the garbage collector stops tracking: a list
        # of a million lists would be walked by every full collection, doubling the cost of a read
        self.reads: list[tuple[Any, ...]] = []
        self.pending_work: dict[int, list[Any]] = {}  # read index -> [PENDING seconds, PENDING_ARRAYS], if any
        self.pairs: list[tuple[int, int]] = []  # (opening read, closing read), as the script subtracted them
        self.calibrating: list[tuple[int, int]] = []  # the pairs %timeit read to choose its loop count
        self.loops: dict[str, int] = {}  # "opening:closing" read indexes -> the calls a timeit pair timed, if not 1
        self.subtracted_at: dict[str, int] = {}  # "opening:closing" -> the script's line that subtracted them
        self.functions_dropped: dict[str, str] = {}  # "opening:closing" -> the function timeit made, never called
        self.events: list[tuple[str, float, int, str]] = []  # (event, seconds, end ref_ns, function)
        self.jax_version = ""
        self.unrecorded = 0  # reads past MAX_READS
        self.namespaces: dict[tuple[int, int], dict[str, Any]] = {}  # (opening, closing line): names at the first
        self.fair: dict[str, dict[str, Any]] = {}  # "opening:closing": the fair figure, or why there is none
        self.isolated: list[dict[str, Any]] = []  # framework pairs timed in isolated workers (`_isolated`)
        self._jax: Any = None
        self._live_arrays: Any = None
        self.pending_checks = 0  # looks for JAX work still running (one per read once jax is imported)
        self.dispatch = DispatchCounter()
        self.torch = TorchCalls()
        self._pending: queue.SimpleQueue = queue.SimpleQueue()  # (read, arrays still computing at it)
        self._waiter: threading.Thread | None = None

    # -- clocks ------------------------------------------------------------------------------------
    def install(self) -> None:
        for name in CLOCKS:
            setattr(time, name, self._wrap(getattr(time, name), name))
        timeit.default_timer = time.perf_counter
        # the default `timer=` arguments were bound when timeit was imported
        for function in (timeit.Timer.__init__, timeit.timeit, timeit.repeat):
            function.__defaults__ = tuple(
                time.perf_counter if d is _perf_counter else d for d in function.__defaults__ or ())
        _datetime.datetime = _observed_datetime(self)  # type: ignore[misc]
        sys.meta_path.insert(0, _AfterImport("jax", self._hook_jax))
        if "torch" in sys.modules:
            self.torch.install(sys.modules["torch"])
        else:
            sys.meta_path.insert(0, _AfterImport("torch", self.torch.install))

    def _site(self, depth: int = 2) -> tuple[int, bool, str] | None:
        """The user's line that read the clock (directly, or through timeit, pytest-benchmark's fixture or an IPython
        timing magic), whether through such a harness, and the magic (``time``, ``timeit`` or ""); None for a library's read. ``depth``: frames
        between this function and the caller of the clock."""
        frame = sys._getframe(depth)
        name = frame.f_code.co_filename
        if name == self.script:
            return frame.f_lineno, False, ""
        if _harness(name) or _in_magics(name):
            magic = "benchmark" if name.endswith(_BENCHMARK_SUFFIXES) else ""
            while frame is not None and frame.f_code.co_filename != self.script:
                if _in_magics(frame.f_code.co_filename):
                    magic = frame.f_code.co_name  # the outermost: the magic's own function
                frame = frame.f_back
            if frame is not None:
                return frame.f_lineno, magic != "time", magic
        return None

    def read(self, line: int, clock: str, via_timeit: bool, seconds: float, magic: str = "") -> int:
        """Record a read of the user's (its value, ``seconds``, already taken); wait for pending JAX work after it.
        Past `MAX_READS` reads are counted only: -1."""
        now = _perf_ns()
        index = len(self.reads)
        if index >= MAX_READS:
            self.unrecorded += 1
            return -1
        counts = self.dispatch.snapshot() if self._jax is not None else ()
        self.reads.append((now, line, clock, via_timeit, 0.0, 0, _grad_mode(), seconds, magic, counts))
        if self._jax is not None:
            self._watch_pending(index)
        return index

    def paired(self, read: int, other: int, frame: Any) -> None:
        """The script subtracted two readings in ``frame``: one sample of the interval between them. The first
        time a line pair is subtracted in the script's own code, its names then are kept, to re-time the
        statements between the reads afterwards (`_fair`)."""
        first, last = min(read, other), max(read, other)
        if frame.f_code.co_filename.endswith(_BENCHMARK_SUFFIXES) and frame.f_code.co_name != "runner":
            return  # the fixture timing its own run (for its log), not the statement it was given
        self.pairs.append((first, last))
        timer = frame.f_back
        number = timer.f_locals.get("number") if timer is not None and timer.f_code.co_name == "timeit" else None
        if isinstance(number, int) and number > 1 and frame.f_code.co_filename in _TIMEIT_FILES:
            self.loops[f"{first}:{last}"] = number  # timeit's template: one pair around `number` calls
        if frame.f_code.co_filename.endswith(_BENCHMARK_SUFFIXES):  # pytest-benchmark's runner(loops_range)
            calls = frame.f_locals.get("loops_range")
            if calls and len(calls) > 1:
                self.loops[f"{first}:{last}"] = len(calls)
            if timer is not None and timer.f_code.co_name == "_calibrate_timer":
                self.calibrating.append((first, last))  # not in the statistics the fixture reports
        if frame.f_code.co_filename in _TIMEIT_FILES:
            dropped = _function_dropped(frame.f_code)
            if dropped:
                self.functions_dropped[f"{first}:{last}"] = dropped
        # %timeit's Timer.timeit called by the magic itself (not by Timer.repeat): a run to choose the loop count
        caller = frame.f_back.f_back if frame.f_back is not None else None
        if caller is not None and _in_magics(frame.f_back.f_code.co_filename) and _in_magics(caller.f_code.co_filename):
            self.calibrating.append((first, last))
        if frame.f_code.co_filename == self.script:
            self.subtracted_at[f"{first}:{last}"] = frame.f_lineno
        key = (self.reads[first][LINE], self.reads[last][LINE])
        if key not in self.namespaces and frame.f_code.co_filename == self.script:
            self.namespaces[key] = {**frame.f_globals, **frame.f_locals}

    def _wrap(self, clock: Any, name: str) -> Any:
        kind = _ReadingInt if name.endswith("_ns") else _ReadingFloat
        scale = 1e-9 if name.endswith("_ns") else 1.0
        observer = self

        def observed() -> Any:
            value = clock()
            site = observer._site()
            if site is None:
                return value
            return kind.of(value, observer, observer.read(site[0], name, site[1], value * scale, site[2]))

        observed.__name__ = observed.__qualname__ = name
        observed.__module__ = "time"  # named as the clock it stands for (pytest-benchmark loads its timer by name)
        observed.__doc__ = clock.__doc__
        return observed

    # -- jax ---------------------------------------------------------------------------------------
    def _hook_jax(self, jax: Any) -> None:
        self._jax = jax
        self.jax_version = getattr(jax, "__version__", "")
        self.dispatch.install(jax)
        try:
            jax.monitoring.register_event_duration_secs_listener(self._on_event)
        except AttributeError:  # a jax without monitoring: no compile events, pending work still seen
            pass

    def _on_event(self, event: str, duration: float, **kwargs: Any) -> None:
        if event in COMPILE_EVENTS:
            self.events.append((event, float(duration), _perf_ns(), str(kwargs.get("fun_name", ""))))

    def _watch_pending(self, index: int) -> None:
        """Hand the JAX arrays still computing at read ``index`` to the waiter thread, which records when they
        finished: the script goes on at once, so what it times is not changed by the looking."""
        self.pending_checks += 1
        try:
            if self._live_arrays is None:  # the default backend's own method: jax.live_arrays() looks it up each time
                self._live_arrays = _live_arrays_of(self._jax)
            pending = [a for a in self._live_arrays() if not a.is_ready()]  # the held outputs among them
        except Exception:  # a deleted or donated array, a backend without live_arrays: nothing to wait for
            return
        finally:
            self.dispatch.take_held()
        if not pending:
            return
        self.pending_work[index] = [0.0, len(pending)]
        if self._waiter is None:
            self._waiter = threading.Thread(target=self._wait, name="levelbench-pending-work", daemon=True)
            self._waiter.start()
        self._pending.put((index, pending))

    def _wait(self) -> None:
        while (item := self._pending.get()) is not None:
            index, arrays = item
            try:
                self._jax.block_until_ready(arrays)
            except Exception:  # the computation failed: the script sees that error itself when it reads it
                pass
            self.pending_work[index][0] = (_perf_ns() - self.reads[index][REF]) / 1e9
            del item, arrays  # the arrays are the script's to free

    def finish(self, wait: float) -> None:
        """Let the waiter record the work still running at the last reads, for at most ``wait`` seconds."""
        if self._waiter is not None:
            self._pending.put(None)
            self._waiter.join(wait)

    def to_json(self) -> dict[str, Any]:
        reads = [list(r) for r in self.reads]
        for index, (seconds, arrays) in self.pending_work.items():
            reads[index][PENDING], reads[index][PENDING_ARRAYS] = seconds, arrays
        return {"reads": reads, "pairs": self.pairs, "calibrating": self.calibrating, "loops": self.loops,
                "events": self.events, "jax_version": self.jax_version,
                "unrecorded_reads": self.unrecorded, "fair": self.fair, "isolated": self.isolated,
                "jits_created": self.dispatch.created, "torch_calls": self.torch.calls,
                "functions_dropped": self.functions_dropped,
                "subtracted_at": self.subtracted_at}

    def instrumented(self) -> dict[str, int]:
        """What the instrumentation did so far (the child takes it when the script ends, before re-timing), each kind
        with a unit cost (`benchmarks/doctor_run_overhead.py`
        multiplies them out to bound the overhead): clock reads observed, looks for pending JAX work, JAX
        dispatches and transfers counted, compile events recorded, torch module calls and backward passes seen."""
        return {"clock_reads": len(self.reads) + self.unrecorded, "pending_checks": self.pending_checks,
                "dispatches": self.dispatch.counted(), "compile_events": len(self.events),
                "module_calls": len(self.torch.calls) + self.torch.unrecorded}


_perf_counter = time.perf_counter


def _live_arrays_of(jax: Any) -> Any:
    """The default backend's ``live_arrays`` (what ``jax.live_arrays()`` calls after looking the backend up, a
    microsecond a read); ``jax.live_arrays`` itself where this jax keeps its backends elsewhere."""
    try:
        return jax._src.xla_bridge.get_backend().live_arrays
    except AttributeError:
        return jax.live_arrays


def _function_dropped(code: Any) -> str:
    """The name of the function (``<lambda>``) that timeit's timed statement, compiled into ``code``, creates and
    drops unused (``MAKE_FUNCTION`` then ``POP_TOP``): what was timed is the making of a function object, its
    body never ran. "" when the statement does anything else."""
    # lazy: dis is read only for timeit's template code, once per sample
    import dis

    code_name, made = "", ""
    for instruction in dis.get_instructions(code):
        if instruction.opname == "LOAD_CONST" and hasattr(instruction.argval, "co_name"):
            code_name, made = instruction.argval.co_name, ""
        elif instruction.opname == "MAKE_FUNCTION" and code_name:
            made = code_name
        elif instruction.opname == "SET_FUNCTION_ATTRIBUTE" and made:
            continue
        elif instruction.opname == "POP_TOP" and made:
            return made
        else:
            code_name = made = ""
    return ""


def _grad_mode() -> bool | None:
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    try:
        return bool(torch.is_grad_enabled())
    except Exception:  # a half-imported torch
        return None


class _Reading:
    """Mixin of the observed clock values: subtracting one from another records the pair."""

    __slots__ = ()
    _observer: Observer
    _read: int

    def _pair(self, other: Any) -> None:
        if (isinstance(other, _Reading) and other._observer is self._observer and other._read != self._read
                and min(self._read, other._read) >= 0):
            self._observer.paired(self._read, other._read, sys._getframe(2))


class _ReadingFloat(float, _Reading):
    __slots__ = ("_observer", "_read")

    @classmethod
    def of(cls, value: float, observer: Observer, read: int) -> "_ReadingFloat":
        made = cls(value)
        made._observer, made._read = observer, read
        return made

    def __sub__(self, other: Any) -> Any:
        self._pair(other)
        return float.__sub__(self, other)

    def __rsub__(self, other: Any) -> Any:
        self._pair(other)
        return float.__rsub__(self, other)

    def __reduce__(self) -> Any:  # pickles as the plain value
        return (float, (float(self),))


class _ReadingInt(int, _Reading):  # int subclasses take no __slots__

    @classmethod
    def of(cls, value: int, observer: Observer, read: int) -> "_ReadingInt":
        made = cls(value)
        made._observer, made._read = observer, read
        return made

    def __sub__(self, other: Any) -> Any:
        self._pair(other)
        return int.__sub__(self, other)

    def __rsub__(self, other: Any) -> Any:
        self._pair(other)
        return int.__rsub__(self, other)

    def __reduce__(self) -> Any:
        return (int, (int(self),))


def _observed_datetime(observer: Observer) -> type:
    """``datetime.datetime`` whose ``now``/``utcnow`` are observed reads, and whose difference is recorded."""
    base = _datetime.datetime

    class datetime(base):  # noqa: N801 - the name users see in reprs
        def __sub__(self, other: Any) -> Any:
            read, other_read = getattr(self, "_lb_read", None), getattr(other, "_lb_read", None)
            if read is not None and other_read is not None and read != other_read and min(read, other_read) >= 0:
                observer.paired(read, other_read, sys._getframe(1))
            return base.__sub__(self, other)

        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return _observed_now(cls, base.now(tz), "datetime.now")

        @classmethod
        def utcnow(cls) -> Any:
            return _observed_now(cls, base.utcnow(), "datetime.utcnow")

    def _observed_now(cls: type, value: Any, clock: str) -> Any:
        made = cls.combine(value.date(), value.timetz())
        site = observer._site(3)
        if site is not None:
            made._lb_read = observer.read(site[0], clock, site[1], made.timestamp(), site[2])
        return made

    datetime.__module__ = "datetime"
    datetime.__qualname__ = "datetime"
    return datetime


class _AfterImport(importlib.abc.MetaPathFinder):
    """Calls ``then(module)`` once ``name`` has been imported (by the script, or by a library it imports)."""

    def __init__(self, name: str, then: Any) -> None:
        self.name, self.then = name, then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = None
        for finder in sys.meta_path:  # the finders that would have found it (an editable install's too)
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                break
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module = spec.loader.exec_module
        then = self.then

        def exec_then(module: Any) -> None:
            exec_module(module)
            then(module)

        spec.loader.exec_module = exec_then  # type: ignore[method-assign]
        return spec
