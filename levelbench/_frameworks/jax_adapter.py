"""JAX: asynchronous results, jit compilation, XLA cost analysis.

jax is imported only when the user's objects show it is in use (``"jax" in sys.modules``).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from .._values.findings import Finding, Severity
from .._results.measurement import CompileTimes
from .base import COMPILE, LOWER, TRACE, ArrayInfo, CompileEvent, CompileLog
from .._values.pytree import leaves_with_paths
from .numpy_adapter import _per_call

# JAX's monitoring events for the three stages of a compilation
_STAGES = {
    "/jax/core/compile/jaxpr_trace_duration": TRACE,
    "/jax/core/compile/jaxpr_to_mlir_module_duration": LOWER,
    "/jax/core/compile/backend_compile_duration": COMPILE,
}

_logs: list[CompileLog] = []
_lock = threading.Lock()
_listening = False


def _on_duration(event: str, duration: float, **kwargs: Any) -> None:
    stage = _STAGES.get(event)
    if stage is not None:
        e = CompileEvent(stage, duration, str(kwargs.get("fun_name", "?")))
        for log in list(_logs):
            log.events.append(e)


def _listen() -> None:
    """The one `jax.monitoring` listener levelbench registers, once per process."""
    global _listening
    with _lock:
        if not _listening:
            import jax.monitoring  # the user's code already imported jax

            jax.monitoring.register_event_duration_secs_listener(_on_duration)
            _listening = True


@contextmanager
def _reporting(log: CompileLog) -> Iterator[None]:
    if "jax" not in sys.modules:
        yield
        return
    _listen()
    _logs.append(log)
    try:
        yield
    finally:
        _logs.remove(log)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "CACHE MISS" in message:
            self.messages.append(message)


@contextmanager
def cache_miss_explanations() -> Iterator[list[str]]:
    """JAX's own explanation of each tracing-cache miss in the block (names the changed input).

    Turns ``jax_explain_cache_misses`` on for the block and keeps the messages instead of letting
    them reach the user's terminal.
    """
    import jax

    logger = logging.getLogger("jax")
    handler = _Collect()
    was_on = bool(getattr(jax.config, "jax_explain_cache_misses", False))
    propagated = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        jax.config.update("jax_explain_cache_misses", True)
    except (AttributeError, KeyError):  # a JAX without the option: no explanations, same probe
        pass
    try:
        yield handler.messages
    finally:
        try:
            jax.config.update("jax_explain_cache_misses", was_on)
        except (AttributeError, KeyError):
            pass
        logger.removeHandler(handler)
        logger.propagate = propagated


@contextmanager
def host_reads() -> Iterator[list[list[tuple[str, int, str]]]]:
    """Every read of a JAX array's value on the host in the block (``np.asarray(x)``,
    ``jax.device_get``, ``float(x)``, ``x.item()``, ``x.tolist()``, printing), as the call stack of each.

    On CPU the transfer guard never fires (device memory is host memory), so this counts the reads
    themselves: each goes through the array's host value, which is wrapped for the block. A frame
    is ``(file, line, function)``, innermost last.
    """
    import traceback

    from jax._src import array as _array  # the one class every JAX array is; no public hook exists

    cls = _array.ArrayImpl
    original_value, original_async = cls.__dict__["_value"], cls.copy_to_host_async
    reads: list[list[tuple[str, int, str]]] = []
    # jax.device_get starts an async copy, then reads: one copy. The arrays are kept for the block
    # so that a freed array's id is not reused by the next one.
    seen: dict[int, Any] = {}

    def note(self: Any) -> None:
        if getattr(self, "_npy_value", None) is None and id(self) not in seen:  # later reads reuse it
            seen[id(self)] = self
            reads.append([(f.filename, f.lineno or 0, f.name) for f in traceback.extract_stack()[:-2]])

    def value(self: Any) -> Any:
        note(self)
        return original_value.fget(self)

    def copy_to_host_async(self: Any) -> Any:
        note(self)
        return original_async(self)

    cls._value = property(value)
    cls.copy_to_host_async = copy_to_host_async
    try:
        yield reads
    finally:
        cls._value = original_value
        cls.copy_to_host_async = original_async


class JaxAdapter:
    name = "jax"

    def in_use(self) -> bool:
        return "jax" in sys.modules

    def reporting_compiles(self, log: CompileLog) -> Any:
        return _reporting(log)

    def is_array(self, x: Any) -> bool:
        if "jax" not in sys.modules:
            return False
        import jax

        return isinstance(x, jax.Array)

    def describe(self, x: Any) -> ArrayInfo:
        try:
            device = ",".join(sorted(str(d) for d in x.devices()))
        except Exception:  # tracers and abstract values have no device
            device = "?"
        return ArrayInfo("jax", tuple(x.shape), str(x.dtype), _short_device(device))

    def to_numpy(self, x: Any) -> Any:
        return np.asarray(x)

    def blocker(self, result: Any) -> Callable[[Any], None] | None:
        if "jax" not in sys.modules:
            return None
        import jax

        if not any(isinstance(leaf, jax.Array) for leaf in jax.tree_util.tree_leaves(result)):
            return None
        return jax.block_until_ready

    def is_jitted(self, fn: Any) -> bool:
        return self.in_use() and callable(getattr(fn, "lower", None)) and callable(getattr(fn, "trace", None))

    def owns_callable(self, fn: Any) -> bool:
        if not self.in_use():
            return False
        if self.is_jitted(fn):
            return True
        module = getattr(fn, "__module__", "") or ""
        return module.startswith(("jax.", "jax")) and not module.startswith("jaxtyping")

    def compile_times(self, fn: Any, args: tuple, kwargs: dict) -> CompileTimes | None:
        """Trace, lower and compile one by one through ``jax.stages``, before the first call.

        The stages share JAX's caches with ordinary calls, so the first call that follows runs
        the program compiled here; if the program was compiled before, ``cached`` is set.
        """
        if not self.is_jitted(fn):
            return None
        from time import perf_counter

        log = CompileLog()
        with _reporting(log):
            t0 = perf_counter()
            traced = fn.trace(*args, **kwargs)
            t1 = perf_counter()
            lowered = traced.lower()
            t2 = perf_counter()
            lowered.compile()
            t3 = perf_counter()
        return CompileTimes(t1 - t0, t2 - t1, t3 - t2, source="aot", cached=log.compilations == 0)

    def dispatch_floor(self, timer: Callable[[], float]) -> float | None:
        import jax
        import jax.numpy as jnp


        f = jax.jit(lambda x: x + 1)
        x = jnp.zeros((1,), jnp.float32)
        f(x).block_until_ready()
        # waited for as the timing engine waits for every call: jax.block_until_ready on the output
        return _per_call(lambda: jax.block_until_ready(f(x)), timer, number=300)

    def flops(self, fn: Any, args: tuple, kwargs: dict) -> float | None:
        if not self.is_jitted(fn):
            return None  # jitting an arbitrary function to count could compile for minutes
        cost = cost_analysis(fn, args, kwargs)
        if cost is None:
            return None
        flops = cost.get("flops")
        return float(flops) if flops is not None and flops >= 0 else None

    def call_findings(self, fn: Any, args: tuple, kwargs: dict, result: Any) -> list[Finding]:
        import jax

        findings = []
        name = getattr(fn, "__name__", type(fn).__name__)
        if self.is_jitted(fn) and not jax.tree_util.tree_leaves(result):
            findings.append(
                Finding(
                    "LB002",
                    f"jitted function {name!r} returns nothing: XLA removed all its work",
                    Severity.ERROR,
                    evidence=f"the call returned {result!r}; with no outputs, every computation is dead code",
                    cost="the time measured is dispatch overhead only, not the computation",
                    fix="return the result (e.g. `return jnp.stack(ys)`), and time `jax.block_until_ready(f(x))`",
                )
            )
        host_inputs = [
            p for p, leaf in _leaves_with_paths((args, kwargs)) if isinstance(leaf, np.ndarray) and leaf.size > 1
        ]
        if host_inputs and self.owns_callable(fn):
            findings.append(
                Finding(
                    "LB007",
                    f"{len(host_inputs)} NumPy input(s) to a JAX function: each call copies them to the device",
                    Severity.WARNING,
                    evidence="NumPy arrays at " + ", ".join(host_inputs[:5]),
                    cost="a host-to-device transfer is timed on every call",
                    fix="x = jax.device_put(x)  # once, before timing",
                )
            )
        return findings


def cost_analysis(fn: Any, args: tuple, kwargs: dict) -> dict[str, float] | None:
    """XLA's cost analysis of the compiled program, or None when JAX cannot give one."""
    import jax

    try:
        jitted = fn if callable(getattr(fn, "lower", None)) else jax.jit(fn)
        compiled = jitted.lower(*args, **kwargs).compile()
        cost = compiled.cost_analysis()
        has_loop = " while(" in compiled.as_text()
    except Exception:  # not traceable, or a backend without cost analysis
        return None
    if has_loop:
        return None  # XLA counts a while loop's body once, whatever the trip count: the total would be wrong
    if isinstance(cost, (list, tuple)):
        cost = cost[0] if cost else None
    return dict(cost) if cost else None


def _leaves_with_paths(tree: Any) -> list[tuple[str, Any]]:
    return leaves_with_paths(tree)


def _short_device(device: str) -> str:
    return device.replace("TFRT_CPU_", "cpu:").replace("CpuDevice(id=", "cpu:").rstrip(")").lower()


def config_value(name: str) -> Any:
    import jax

    return getattr(jax.config, name, None)


ADAPTER = JaxAdapter()
