"""LB250-LB252: data crossing between host and device on every call.

LB250: NumPy arrays passed to a JAX function are copied to the device on each call (the copy is
timed here with ``jax.device_put``). LB251: host callbacks (``pure_callback``, ``io_callback``,
``jax.debug.print``) inside the program stop it to run Python. LB252: the function reads device
values on the host (``float(x)``, ``x.item()``, ``np.asarray(x)``, ``if x > 0``): found when
tracing it fails with one of JAX's host-conversion errors, and on GPU/TPU by running it under
``jax.transfer_guard_device_to_host("disallow")``; on CPU, where the guard never fires (device
memory is host memory), by counting the host reads of one eager call (``jax.device_get``,
``float(x)``, ``.item()``, ``.tolist()``), each at its user line.
"""

from __future__ import annotations

import collections
import time
import traceback
from typing import Any

import numpy as np

from ..._values.findings import Finding, Severity
from ..._values.units import fmt_time
from ..arguments import describe, leaves
from ..._frameworks.jax_adapter import host_reads as counting_host_reads
from ..jaxpr import SourceLine, is_user_file, live_callbacks, user_line
from ..subject import Subject
from .base import Probe

HOST_READ_ERRORS = frozenset({
    "TracerArrayConversionError", "ConcretizationTypeError", "TracerIntegerConversionError",
    "TracerBoolConversionError",
})


def run(subject: Subject) -> list[Finding]:
    found = numpy_inputs(subject)
    trace = subject.traced()
    if trace.ok:
        found += callbacks(trace.jaxpr)
    elif not subject.is_jitted:
        found += host_reads(subject, trace.error)
    if trace.ok and not subject.is_jitted and not subject.quick:
        found += guarded_reads(subject)
    return found


def numpy_inputs(subject: Subject) -> list[Finding]:
    import jax

    host = [leaf for leaf in leaves(subject.fn, subject.args, subject.kwargs)
            if isinstance(leaf.value, np.ndarray) and leaf.value.size > 1]
    if not host:
        return []
    arrays = [leaf.value for leaf in host]
    nbytes = sum(a.nbytes for a in arrays)
    jax.block_until_ready(jax.device_put(arrays))
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        jax.block_until_ready(jax.device_put(arrays))
        times.append(time.perf_counter() - t0)
    copy = sorted(times)[len(times) // 2]
    subject.measured["host_to_device"] = {"bytes": nbytes, "seconds": copy}
    names = ", ".join(f"{leaf.name} ({describe(leaf.value)})" for leaf in host[:4])
    more = f" and {len(host) - 4} more" if len(host) > 4 else ""
    return [Finding(
        "LB250",
        f"{len(host)} NumPy input(s) are copied to the device on every call",
        # KB-sized inputs cost a copy's latency, which a jitted call pays far more cheaply than a
        # standalone device_put: only large copies, or slow ones of real size, are a cause.
        Severity.WARNING if nbytes >= 1 << 20 or (copy >= 100e-6 and nbytes >= 64 << 10) else Severity.INFO,
        evidence=f"{names}{more}: {_bytes(nbytes)}; jax.device_put of them takes {fmt_time(copy)}",
        cost=f"~{fmt_time(copy)} per call" + ("" if subject.is_jitted else
                                              ", more if several operations convert the same array"),
        fix="x = jax.device_put(x)   # once, before the loop or the timing",
        subject=host[0].name,
        data={"cost_seconds": copy, "bytes": nbytes, "arguments": [leaf.name for leaf in host]},
    )]


def callbacks(jaxpr: Any) -> list[Finding]:
    calls = live_callbacks(jaxpr)  # an unused pure_callback is removed by XLA: it costs nothing
    if not calls:
        return []
    kinds = collections.Counter(e.primitive.name for e in calls)
    lines = [str(line) for e in calls if (line := user_line(e)) is not None]
    where = f" at {', '.join(dict.fromkeys(lines))}" if lines else ""
    return [Finding(
        "LB251",
        f"{len(calls)} host callback(s) inside the compiled program",
        Severity.WARNING,
        evidence=", ".join(f"{name} x{n}" for name, n in kinds.items()) + where,
        cost="each callback stops the program, copies its operands to the host and runs Python",
        fix="drop jax.debug.print / callbacks from code you time; compute on device with jnp instead of\n"
            "pure_callback, or move host work outside the jitted function",
        subject=lines[0] if lines else "",
        data={"callbacks": dict(kinds)},
    )]


def host_reads(subject: Subject, error: BaseException | None) -> list[Finding]:
    if error is None or type(error).__name__ not in HOST_READ_ERRORS:
        return []
    line = _user_frame(error)
    where = f" at {line}" if line else ""
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return [Finding(
        "LB252",
        f"{subject.label} reads a JAX value on the host{where}: it cannot be jitted as it is",
        Severity.WARNING,
        evidence=f"tracing it under jax.jit raised {type(error).__name__}: {first}",
        cost="each read waits for the device and copies to the host; the function must run op by op",
        fix="keep values on device: jnp.where / jax.lax.cond instead of `if x > 0`, return arrays instead of\n"
            "float(x) or x.item(); pass shape-like numbers as static (jax.jit(f, static_argnums=...))",
        subject=str(line) if line else subject.label,
        data={"error": type(error).__name__},
    )]


def counted_reads(subject: Subject) -> list[Finding]:
    """On CPU the transfer guard never fires: count the host reads of one eager call instead."""
    with counting_host_reads() as reads:
        jax_block(subject.fn(*subject.args, **subject.kwargs))
    users = [u for stack in reads if (u := _read_by_user(stack)) is not None]
    if not users:
        return []
    lines = collections.Counter(SourceLine(*u) for u in users)
    where = ", ".join(f"{line} x{n}" if n > 1 else str(line) for line, n in lines.most_common(3))
    return [Finding(
        "LB252",
        f"{subject.label} copies device arrays to the host while it runs: {len(users)} read(s) per call",
        Severity.WARNING,
        evidence=f"one call as given read {len(users)} JAX array(s) on the host (jax.device_get, float(), .item(), "
                 f".tolist()) at {where}",
        cost="each read waits for the device to finish what it queued and copies the value out; under jax.jit "
             "the function could not be compiled whole",
        fix="keep intermediate values on the device (jnp instead of np, no device_get inside); fetch results "
            "once, at the end, outside the function",
        subject=str(lines.most_common(1)[0][0]),
        data={"reads": len(users), "lines": {str(k): v for k, v in lines.items()}},
    )]


# The ways user code reads a value on the host; a read from inside JAX's own machinery (constants
# read while a jitted call is traced or lowered) is not the user's.
_READ_ENTRIES = frozenset({"device_get", "__array__", "__float__", "__int__", "__bool__", "__index__", "__complex__",
                           "item", "tolist", "__format__", "__repr__", "__str__"})


def _read_by_user(stack: list[tuple[str, int, str]]) -> tuple[str, int, str] | None:
    """The user frame that read a value through one of `_READ_ENTRIES`, or None."""
    for i in range(len(stack) - 1, -1, -1):
        if is_user_file(stack[i][0]):
            called = stack[i + 1][2] if i + 1 < len(stack) else ""
            return stack[i] if called in _READ_ENTRIES else None
    return None


def jax_block(x: Any) -> Any:
    import jax

    return jax.block_until_ready(x)


def guarded_reads(subject: Subject) -> list[Finding]:
    import jax

    if jax.default_backend() == "cpu":
        return counted_reads(subject)
    try:
        with jax.transfer_guard_device_to_host("disallow"):
            jax.block_until_ready(subject.fn(*subject.args, **subject.kwargs))
    except Exception as e:  # the guard's error names the transfer
        if "transfer" not in str(e).lower():
            return []
        return [Finding(
            "LB252",
            f"{subject.label} copies device arrays to the host while it runs",
            Severity.WARNING,
            evidence=f"under jax.transfer_guard_device_to_host('disallow'): {str(e).strip().splitlines()[0]}",
            cost="each copy waits for the device to finish and crosses the bus",
            fix="keep intermediate values on the device; fetch results once, at the end",
            subject=subject.label,
        )]
    return []


def _user_frame(error: BaseException) -> SourceLine | None:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if is_user_file(f.filename)]
    if not frames:
        return None
    f = frames[-1]
    return SourceLine(f.filename, f.lineno or 0, f.name)


def _bytes(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} B"


PROBE = Probe("transfers", ("LB250", "LB251", "LB252"), run,
              summary="NumPy inputs copied every call, host callbacks, device-to-host reads")
