"""LB262: the program's dominant dense kernel against NumPy's and PyTorch's on the same shapes.

Once the work is the same, is XLA's CPU kernel as fast as the BLAS call NumPy or PyTorch makes?
The probe takes the ``dot_general`` that carries most of the program's FLOPs (shape, dtype, how
often it runs, scan bodies times their length) from the jaxpr, and times that one matmul, in its
canonical ``(batch, m, k) @ (batch, k, n)`` form, as ``jax.jit(jnp.matmul)``, ``np.matmul`` and
``torch.matmul``, each built and timed in a worker process of its own (`compare(..., isolate=True)`,
docs/design/isolation.md): the same inputs from the same seed, checked to agree, then interleaved.

Each is reported as a share of the machine's measured GEMM peak, beside the share the whole
program's matmuls reach (their FLOPs over the program's steady time: a lower bound, the program
does other work too). CPU only: NumPy has no GPU kernel to compare with.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
from typing import Any

import numpy as np

from ..._values.findings import Finding, Severity
from ..._values.stats import Interval
from ..._values.threshold import Threshold, Verdict, judge
from ..._values.units import fmt_time
from ..jaxpr import open_jaxpr, sub_jaxprs
from ..subject import Subject
from .base import Probe
from .roofline import machine_peak_flops
from ..._measuring.candidate import Builder
from ..._measuring.compare import compare

# A kernel this small is dispatch and cache, not GEMM: no library comparison says anything.
MIN_KERNEL_FLOPS = 1e7
# The dominant kernel must carry at least this share of the program's matmul FLOPs.
MIN_SHARE = 0.5
# A library is "faster" when its 95% CI says so and the gap is at least this fraction.
MIN_GAP = 0.10
BUILDERS = "levelbench._probing.kernels"

_done: dict[tuple, dict[str, Any]] = {}  # per process: `levelbench run` diagnoses two JAX candidates


@dataclasses.dataclass(frozen=True)
class Kernel:
    """One dense matmul of the program in canonical form, and how many times a call runs it."""

    batch: int
    m: int
    k: int
    n: int
    dtype: str
    count: float = 1.0

    @property
    def flops(self) -> float:
        return 2.0 * self.batch * self.m * self.k * self.n

    @property
    def key(self) -> tuple:
        return (self.batch, self.m, self.k, self.n, self.dtype)

    def describe(self) -> str:
        lead = f"{self.batch} x " if self.batch > 1 else ""
        return f"{self.dtype} {lead}({self.m}x{self.k}) @ ({self.k}x{self.n})"

    def builder_kwargs(self) -> dict[str, Any]:
        return {"batch": self.batch, "m": self.m, "k": self.k, "n": self.n, "dtype": self.dtype}


def dense_kernels(jaxpr: Any, repeat: float = 1.0) -> dict[tuple, Kernel]:
    """The program's ``dot_general`` kernels by canonical shape, each with how often a call runs it."""
    found: dict[tuple, Kernel] = {}
    for e in open_jaxpr(jaxpr).eqns:
        if e.primitive.name == "dot_general":
            k = canonical(e)
            if k is not None:
                old = found.get(k.key)
                found[k.key] = dataclasses.replace(k, count=(old.count if old else 0.0) + repeat)
        inner = repeat * (float(e.params.get("length", 1)) if e.primitive.name == "scan" else 1.0)
        for s in sub_jaxprs(e):
            for key, k in dense_kernels(s, inner).items():
                old = found.get(key)
                found[key] = dataclasses.replace(k, count=(old.count if old else 0.0) + k.count)
    return found


def canonical(eqn: Any) -> Kernel | None:
    try:
        (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
        lhs, rhs = eqn.invars[0].aval, eqn.invars[1].aval
    except (KeyError, AttributeError, ValueError, TypeError, IndexError):
        return None
    if np.dtype(lhs.dtype) != np.dtype(rhs.dtype) or not np.issubdtype(np.dtype(lhs.dtype), np.floating):
        return None
    ls, rs = lhs.shape, rhs.shape
    batch = math.prod(ls[d] for d in lb)
    k = math.prod(ls[d] for d in lc)
    m = math.prod(ls[d] for d in range(len(ls)) if d not in (*lc, *lb))
    n = math.prod(rs[d] for d in range(len(rs)) if d not in (*rc, *rb))
    return Kernel(int(batch), int(m), int(k), int(n), np.dtype(lhs.dtype).name)


def kernel_to_time(jaxpr: Any) -> tuple[Kernel, dict, float] | None:
    """The dense kernel worth timing in the libraries (the program's largest, big enough and most of its
    dense work), with every dense kernel and their total FLOPs; None when there is none: the probe then
    costs one walk of the program (explain's budget reads this before running it)."""
    kernels = dense_kernels(jaxpr)
    total = sum(k.flops * k.count for k in kernels.values())
    if not kernels or total <= 0:
        return None
    top = max(kernels.values(), key=lambda k: k.flops * k.count)
    if top.flops < MIN_KERNEL_FLOPS or top.flops * top.count / total < MIN_SHARE:
        return None
    return top, kernels, total


def run(subject: Subject) -> list[Finding]:
    import jax

    trace = subject.traced()
    if not trace.ok or jax.default_backend() != "cpu":
        return []
    found = kernel_to_time(trace.jaxpr)
    if found is None:
        return []
    top, kernels, total = found
    share = top.flops * top.count / total
    timing = subject.jitted_timing()
    if timing is None:
        return []
    budget = min(3.0, max(1.0, subject.budget / 5))
    result = _done.get(top.key)
    if result is None:
        result = time_kernel(top, budget=budget)
        if _gaps(result.get("jax_over", {})) and result["agree"]:
            # A gap seen once may be the machine (another process took a core during XLA's blocks):
            # it is claimed only if fresh workers, timed in the other order, see it again.
            again = time_kernel(top, budget=budget, reverse=True)
            result["replication"] = again.get("jax_over", {})
        _done[top.key] = result
    peak = machine_peak_flops(top.dtype)
    program_rate = total / timing.median
    subject.measured["kernels"] = {**result, "kernel": dataclasses.asdict(top), "share_of_matmul_flops": share,
                                   "program_matmul_flops": total, "program_seconds": timing.median,
                                   "program_peak_share": program_rate / peak if peak else None, "peak_flops": peak}
    return [kernel_finding(subject.label, top, result, program_rate, peak, timing.median)]


def time_kernel(kernel: Kernel, budget: float, reverse: bool = False) -> dict[str, Any]:
    """``jax``, ``numpy`` (and ``torch`` when installed) on the kernel, each in its own worker, via compare.

    ``reverse``: interleave them in the other order (a replication, so that a candidate is not
    always timed right after the same neighbour).
    """

    kw = kernel.builder_kwargs()
    candidates = {"numpy": Builder(f"{BUILDERS}:numpy_matmul", kw), "jax": Builder(f"{BUILDERS}:jax_matmul", kw)}
    if importlib.util.find_spec("torch") is not None:
        candidates["torch"] = Builder(f"{BUILDERS}:torch_matmul", kw)
    if reverse:
        candidates = dict(reversed(candidates.items()))
    # No GEMM lane: the NumPy candidate is a GEMM timed in the same rounds already, and a lane's worker
    # would cost the probe (and explain's budget) another process.
    c = compare(candidates, baseline="numpy", isolate=True, strict=False, budget=budget, rel_ci=0.03,
                environment=False, timeout=120 + 4 * budget, peak_lane=False)
    out: dict[str, Any] = {"isolated": c.isolation is not None and c.isolation.mode == "workers",
                           "agreements": [a.to_dict() for a in c.agreements], "failed": dict(c.failed),
                           "seconds": {}, "peak_share": {}, "ratio_to_numpy": {}}
    for name, m in c.measurements.items():
        out["seconds"][name] = m.median
        out["peak_share"][name] = c.peak_share(name)
        r = c.ratio(name)
        out["ratio_to_numpy"][name] = {"estimate": r.estimate, "lower": r.lower, "upper": r.upper}
    if "jax" in c.measurements:
        for name in c.measurements:
            r = c.ratio("jax", name)  # time(jax) / time(name): > 1 means XLA is slower
            out.setdefault("jax_over", {})[name] = {"estimate": r.estimate, "lower": r.lower, "upper": r.upper}
    out["agree"] = all(a["ok"] for a in out["agreements"])
    return out


def kernel_finding(label: str, kernel: Kernel, result: dict[str, Any], program_rate: float,
                   peak: float | None, program_seconds: float | None = None) -> Finding:
    """LB262 from the kernel's timings: a warning only for a gap that holds up (`_real_gaps`).

    ``program_seconds``: the whole program's steady time per call, to check that XLA's kernel
    alone is no slower than the program that runs it.
    """
    shares = result["peak_share"]

    def pct(name: str) -> str:
        s = shares.get(name)
        return f"{100 * s:.0f}%" if s is not None else "?"

    names = {"jax": "XLA (jax.jit)", "numpy": "NumPy", "torch": "PyTorch"}
    ran = [n for n in ("jax", "numpy", "torch") if n in result["seconds"]]
    listing = ", ".join(f"{names[n]} {fmt_time(result['seconds'][n])} ({pct(n)} of peak)" for n in ran)
    program = f"{100 * program_rate / peak:.0f}% of peak" if peak else f"{program_rate / 1e9:.3g} GFLOP/s"
    over = result.get("jax_over", {})
    seen = _gaps(over)
    faster, doubt = _real_gaps(kernel, result, seen, program_seconds)
    gaps = "; ".join(f"jax/{n} time {_ratio(over[n])}" for n in ("numpy", "torch") if n in over)
    agreed = "outputs agree" if result["agree"] else "OUTPUTS DIFFER (not the same work)"
    isolated = "each in its own worker process" if result["isolated"] else "in one process"
    evidence = (f"{kernel.describe()} runs {kernel.count:g} time(s) per call ({kernel.flops * kernel.count / 1e9:.3g} "
                f"GFLOP); the program's matmuls reach {program} over its whole steady time; alone, {isolated}, "
                f"interleaved ({agreed}): {listing}; {gaps}")
    if "replication" in result:
        again = result["replication"]
        evidence += "; timed again in fresh workers, in the other order: " + "; ".join(
            f"jax/{n} {_ratio(again[n])}" for n in seen if n in again)
    if result["failed"]:
        evidence += "; failed: " + ", ".join(f"{n} ({why.splitlines()[0]})" for n, why in result["failed"].items())
    if faster and result["agree"]:
        best = min(faster, key=lambda n: result["seconds"][n])
        saving = (result["seconds"]["jax"] - result["seconds"][best]) * kernel.count
        tests = [_gap_test(over[best], f"XLA's time / {names[best]}'s")]
        if best in result.get("replication", {}):
            tests.append(_gap_test(result["replication"][best], f"XLA's time / {names[best]}'s, timed again"))
        return judge(Finding(
            "LB262",
            f"XLA's CPU kernel for the dominant matmul is slower than {names[best]}'s on the same shapes: "
            f"{pct('jax')} of peak against {pct(best)}",
            Severity.WARNING,
            evidence=evidence,
            cost=f"~{fmt_time(saving)} per call measured on this kernel alone (not a projection of the program)",
            fix=("if this matmul dominates, try another layout of the same "
                 "work (batch the matmuls into one larger one with jnp.einsum / jax.vmap), or keep this step in "
                 f"{names[best]} outside JAX"),
            subject=label,
            data={"cost_seconds": saving, **_data(kernel, result, program_rate, peak)},
        ), *tests)[0]
    shares_text = (f"XLA's CPU kernel for the dominant matmul runs at {pct('jax')} of peak; NumPy at {pct('numpy')}"
                   + (f", PyTorch at {pct('torch')}" if "torch" in shares else ""))
    if not result["agree"]:
        verdict = "the libraries' outputs differ, so no gap is claimed"
    elif doubt:
        verdict = f"a gap was seen but is not claimed: {doubt}"
    elif over and all(o["upper"] < 1 for n, o in over.items() if n != "jax"):
        verdict = "XLA's is the fastest on these shapes"
    else:
        verdict = f"no gap beyond {100 * MIN_GAP:.0f}% that the CI supports"
    return Finding(
        "LB262",
        f"{shares_text}: {verdict}",
        Severity.INFO,
        evidence=evidence,
        cost="",
        fix="nothing to change in the kernel: the difference, if any, is elsewhere in the program",
        subject=label,
        data={"cost_seconds": 0.0, "verdict": verdict, **_data(kernel, result, program_rate, peak)},
    )


def _ratio(r: dict[str, float]) -> str:
    return f"{r['estimate']:.3g}x (95% CI {r['lower']:.3g}-{r['upper']:.3g})"


def _gap_test(r: dict[str, float], what: str = "XLA's time / theirs") -> Threshold:
    return Threshold(what, Interval(r["estimate"], r["lower"], r["upper"]), 1 + MIN_GAP, fmt="{:.3g}x".format)


def _gaps(over: dict[str, dict[str, float]]) -> list[str]:
    """The libraries whose 95% CI of XLA's time over theirs is not wholly within `MIN_GAP` (past it,
    or straddling it: a borderline gap, `judge`)."""
    return [n for n in ("numpy", "torch") if n in over and _gap_test(over[n]).verdict is not Verdict.SHORT]


def _real_gaps(kernel: Kernel, result: dict[str, Any], seen: list[str],
               program_seconds: float | None) -> tuple[list[str], str]:
    """The gaps that hold up, and why the others seen do not.

    A gap is real when (1) fresh workers timed in the other order see it again (a replication
    checked against the same CI threshold), and (2) XLA's kernel alone is no slower than the whole
    program that runs it: the program does this matmul ``count`` times and more work besides, so
    an isolated XLA time above the program's time per matmul (by more than `MIN_GAP`) was not
    this program's kernel (a busy machine during XLA's blocks, or another layout), and says nothing
    about it.
    """
    if not seen or not result["agree"]:
        return [], ""
    in_program = program_seconds / kernel.count if program_seconds else None
    jax_alone = result["seconds"].get("jax")
    if in_program is not None and jax_alone is not None and jax_alone > (1 + MIN_GAP) * in_program:
        return [], (f"XLA's kernel alone ({fmt_time(jax_alone)}) ran slower than the whole program per matmul "
                    f"({fmt_time(in_program)}), so the isolated figure is not this program's kernel")
    again = result.get("replication")
    if again is None:
        return seen, ""
    held = [n for n in seen if n in _gaps(again)]
    if not held:
        return [], "fresh workers timed in the other order did not see it again (noise, not the kernel)"
    return held, ""


def _data(kernel: Kernel, result: dict[str, Any], program_rate: float, peak: float | None) -> dict[str, Any]:
    return {"kernel": dataclasses.asdict(kernel), "program_flops_per_second": program_rate, "peak_flops": peak,
            **{k: v for k, v in result.items() if k != "agreements"}}


PROBE = Probe("kernels", ("LB262",), run, expensive=True,
              summary="the dominant matmul timed alone in XLA, NumPy and PyTorch, each isolated, as % of peak")
