"""LB260-LB261: the work the compiled program does, and how close it runs to the machine's limits.

FLOPs come from XLA's cost analysis of the compiled program, checked first: it can be missing,
empty or -1 (LB261 says so rather than print a rate from it), and it counts a loop body once, so
programs with ``scan``/``while`` take their FLOPs from the matmuls times the trip count. Bytes are
those the program must touch (inputs, constants, outputs), not XLA's sum over ops, which counts
fused intermediates; a program under `CACHE_BYTES`, or moving bytes faster than memory can, runs
from cache and is never called memory-bound, and no share of bandwidth above 100% is printed.
The achieved FLOP/s is set against the peak `levelbench._peak` measured (large NumPy GEMMs), the
achieved bandwidth against a large NumPy copy measured here once per process.
"""

from __future__ import annotations

import math
import time
import numpy as np

from ..._values.findings import Finding, Severity
from ..._values.stats import Interval
from ..._values.threshold import Threshold, judge, point
from ..._values.units import fmt_time
from ..jaxpr import iter_equations, matmul_flops, open_jaxpr
from ..subject import Subject
from .base import Probe
from ..._measuring.peak import machine_peak

_bandwidth: float | None = None
CACHE_BYTES = 1 << 20  # a program touching less than this runs from cache, never memory-bound
OVERHEAD_FLOORS = 3  # overhead-bound: under this many dispatch floors per call...
OVERHEAD_SHARE = 0.5  # ...with the roofline bound under this share of the call
LATENCY_SHARE = 0.25  # latency-bound: the roofline bound under this share of the call


def run(subject: Subject) -> list[Finding]:
    trace = subject.traced()
    if not trace.ok or not open_jaxpr(trace.jaxpr).outvars:
        return []  # no outputs: the dead-work probe owns the empty program
    cost = subject.cost()
    m = subject.jitted_timing()
    if m is None:
        return []
    problem = invalid_cost(cost)
    if problem:
        return [_no_cost(subject.label, problem)]
    flops = float(cost["flops"])
    # XLA's "bytes accessed" sums every op's operands, fused intermediates included: it can exceed
    # what memory sees many times over. The program's own inputs and outputs are what it must touch.
    nbytes = float(touched_bytes(trace.jaxpr))
    loops = any(e.primitive.name in ("scan", "while") for e in iter_equations(trace.jaxpr))
    if loops:
        flops = max(flops, matmul_flops(trace.jaxpr))
    if flops <= 0:
        return []
    wide = any(str(getattr(v.aval, "dtype", "")) == "float64" for v in open_jaxpr(trace.jaxpr).outvars)
    peak = machine_peak_flops("float64" if wide else "float32")
    bandwidth = memory_bandwidth()
    subject.measured.update(flops=flops, bytes_accessed=nbytes, peak_flops=peak, memory_bandwidth=bandwidth)
    return roofline_finding(subject.label, flops, nbytes, m.median, peak, bandwidth, m.dispatch_floor, loops,
                            "float64" if wide else "float32", steady_ci=m.ci)


def touched_bytes(jaxpr: object) -> int:
    """Bytes of the program's inputs, closed-over constants and outputs: what it must read and write."""
    j = open_jaxpr(jaxpr)
    total = 0
    for v in (*j.invars, *getattr(j, "constvars", ()), *j.outvars):
        aval = getattr(v, "aval", None)
        shape, dtype = getattr(aval, "shape", None), getattr(aval, "dtype", None)
        if shape is not None and dtype is not None:
            total += int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    return total


def invalid_cost(cost: dict[str, float] | None) -> str:
    """Why a cost analysis cannot be used, or "" if it can."""
    if cost is None:
        return "the backend gave no cost analysis"
    if not cost:
        return "cost_analysis() returned an empty result"
    flops = cost.get("flops")
    if flops is None:
        return f"cost_analysis() has no 'flops' entry (keys: {', '.join(sorted(cost)[:5])})"
    if math.isnan(flops) or flops < 0:
        return f"cost_analysis() reports flops = {flops:g}"
    return ""


def _no_cost(label: str, problem: str) -> Finding:
    return Finding(
        "LB261",
        "XLA gave no usable FLOP count for the compiled program: no roofline",
        Severity.INFO,
        evidence=problem,
        cost="achieved FLOP/s and bandwidth are unknown (levelbench does not print a rate from an invalid count)",
        fix="give the FLOPs yourself where a rate matters: levelbench.measure(f, *args, flops=2 * n**3)",
        subject=label,
        data={"problem": problem},
    )


def roofline_finding(label: str, flops: float, nbytes: float, steady: float, peak: float | None,
                     bandwidth: float | None, floor: float | None, loops: bool, dtype: str,
                     steady_ci: Interval | None = None) -> list[Finding]:
    """LB260: the achieved rates and which bound the program is under. The bound is decided by
    fractions of the steady time (`OVERHEAD_FLOORS`, `OVERHEAD_SHARE`, `LATENCY_SHARE`); with
    ``steady_ci`` each fraction is an interval, and a class whose cut the interval straddles is
    marked borderline (`judge`): another run may name the neighbouring bound."""
    if steady <= 0:
        return []
    rate = flops / steady
    parts = [f"{flops / 1e9:,.3g} GFLOP per call in {fmt_time(steady)}: {rate / 1e9:,.3g} GFLOP/s"]
    if peak:
        parts[0] += f", {rate / peak:.1%} of this machine's {dtype} peak ({peak / 1e9:,.3g} GFLOP/s, NumPy GEMM)"
    else:
        parts[0] += " (peak unknown)"
    has_bytes = not math.isnan(nbytes) and nbytes > 0
    in_cache = has_bytes and (nbytes < CACHE_BYTES or (bandwidth is not None and nbytes / steady > bandwidth))
    if has_bytes:
        moved = f"{_size(nbytes)} in and out: {nbytes / steady / 1e9:,.3g} GB/s"
        if in_cache:
            moved += (f", small enough to stay in cache (under {_size(CACHE_BYTES)}" if nbytes < CACHE_BYTES
                      else ", faster than memory (the data stays in cache")
            moved += "): memory bandwidth does not bound it"
        elif bandwidth:
            moved += f", {nbytes / steady / bandwidth:.1%} of memory bandwidth ({bandwidth / 1e9:,.3g} GB/s, NumPy copy)"
        parts.append(moved)
    if loops:
        parts.append("XLA counts a loop body once: FLOPs are the matmuls times the trip count, bytes a lower bound")
    compute_time = flops / peak if peak else None
    memory_time = nbytes / bandwidth if bandwidth and has_bytes and not in_cache else None
    bound_time = max(t for t in (compute_time, memory_time, 0.0) if t is not None)
    known = compute_time is not None or memory_time is not None
    if floor and steady < OVERHEAD_FLOORS * floor and bound_time < OVERHEAD_SHARE * steady:
        bound, fix = "overhead", ("give each call more work: batch inputs with jax.vmap, or put the loop that calls "
                                  "this function inside one jitted function")
    elif known and bound_time < LATENCY_SHARE * steady:
        bound, fix = "latency", ("the work comes in operations too small to use the machine: batch more per operation "
                                 "(a larger batch, jax.vmap), fuse steps, lax.scan(..., unroll=k); in an RNN, hoist the "
                                 "input projection of all steps out of the loop as one matmul")
    elif compute_time is not None and (memory_time is None or compute_time >= memory_time):
        bound, fix = "compute", ("near the compute roof only large matmuls get there: batch small ones, and use "
                                 "float32 rather than float64 where the precision allows")
    elif memory_time is not None:
        bound, fix = "memory", "fuse elementwise work under one jit and use smaller dtypes to move fewer bytes"
    else:
        bound, fix = "unknown", "the machine's peak is unknown here: levelbench._measuring.peak.machine_peak() measures it"
    ci = steady_ci or point(steady)
    share_ci = Interval(bound_time / steady, bound_time / max(ci.upper, steady),
                        bound_time / min(ci.lower, steady) if ci.lower > 0 else math.inf)
    if bound == "overhead":
        tests = [Threshold("steady time / dispatch floor", ci.scaled(1 / floor), OVERHEAD_FLOORS, above=False,
                           fmt="{:.2f}x".format),
                 Threshold("roofline bound / steady time", share_ci, OVERHEAD_SHARE, above=False, fmt="{:.0%}".format)]
    elif known:
        tests = [Threshold("roofline bound / steady time", share_ci, LATENCY_SHARE, above=bound != "latency",
                           fmt="{:.0%}".format)]
    else:
        tests = []
    # A bound above the measured time means the model does not fit this program: no cost from it.
    above = steady - bound_time if known and bound_time <= steady else None
    share = f"{rate / peak:.0%} of peak" if peak else "peak unknown"
    found = Finding(
        "LB260",
        f"runs at {rate / 1e9:,.3g} GFLOP/s ({share}): " + (
            "far below both the compute and the memory roof" if bound == "latency" else f"{bound}-bound"),
        Severity.INFO,
        evidence="; ".join(parts),
        cost=f"{fmt_time(above)} per call above the roofline bound of {fmt_time(bound_time)}" if above else "",
        fix=fix,
        subject=label,
        data={"cost_seconds": above, "flops": flops, "bytes": nbytes if has_bytes else None, "flop_rate": rate,
              "peak_flops": peak, "memory_bandwidth": bandwidth, "bound": bound},
    )
    # LB260 is always reported; only its bound can be borderline (a point exactly at a cut is not).
    return judge(found, *tests) or [found]


def _size(n: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n:.0f} B"


def machine_peak_flops(dtype: str) -> float | None:
    try:
        return float(machine_peak().for_dtype(dtype))
    except Exception:  # a calibration that fails must not fail the diagnosis
        return None


def memory_bandwidth() -> float | None:
    """Bytes per second of a large NumPy copy (read + write), best of three, measured once per process."""
    global _bandwidth
    if _bandwidth is None:
        src = np.ones(8 * 1024 * 1024)  # 64 MiB: well past the caches
        dst = np.empty_like(src)
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            np.copyto(dst, src)
            best = min(best, time.perf_counter() - t0)
        _bandwidth = 2 * src.nbytes / best
    return _bandwidth


PROBE = Probe("roofline", ("LB260", "LB261"), run, expensive=True,
              summary="FLOPs and bytes from XLA's cost analysis against the machine's peak and bandwidth")
