"""Results that check themselves: what a measurement or a comparison says about its own trustworthiness.

LB0xx are checks on one measurement (a returned function, noise, overhead, cold start,
recompiles); LB3xx on a comparison (work per call against the machine's peak, different work,
candidates slowing each other down). Each finding says what is wrong, the evidence, the cost
and the fix; the thresholds are in `levelbench._values.settings`.
"""

from __future__ import annotations

import statistics
from typing import Any

from .._frameworks import adapter_for_array
from .._results.comparison import IN_PROCESS, Comparison
from .._results.measurement import Measurement
from .._values.findings import Finding, Severity
from .._values.settings import CHECKS, COMPARING
from .._values.stats import relative_iqr_ci
from .._values.steal import steal_share, steal_text
from .._values.threshold import Threshold, judge
from .._values.units import fmt_time


def label_of(fn: Any) -> str:
    """What to call a callable in a report: its qualified name, else its type."""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
    return str(name)


def result_findings(fn: Any, result: Any) -> list[Finding]:
    if lazy_kind(result) == "coroutine":
        return [coroutine_finding(fn, result)]
    if _lazy(result):
        return [
            Finding(
                "LB001",
                f"the call returned a lazy {type(result).__name__}: nothing was computed",
                Severity.ERROR,
                evidence=f"{label_of(fn)} returned {_short_repr(result)}, which computes only when iterated",
                cost="the time measured is that of creating the iterator (nanoseconds), not the work",
                fix="consume it in the call: measure(lambda: list(map(f, xs)))  # not measure(lambda: map(f, xs))",
            )
        ]
    if callable(result) and adapter_for_array(result) is None:
        return [
            Finding(
                "LB001",
                "the call returned a function: nothing was computed",
                Severity.ERROR,
                evidence=f"{label_of(fn)} returned {_short_repr(result)} instead of a result",
                cost="the time measured is that of creating a function object (nanoseconds), not your model",
                fix="time the call itself: measure(model, x)  # not measure(lambda: lambda: model(x))\n"
                "# in IPython: %timeit model(x)  (not %timeit lambda: model(x))",
            )
        ]
    return []


def lazy_kind(x: Any) -> str | None:
    """What kind of unevaluated value ``x`` is ("coroutine", "lazy generator", "lazy map"...), or None:
    a call that returns one ran nothing (LB001)."""
    import inspect

    if inspect.iscoroutine(x):
        return "coroutine"
    if inspect.isgenerator(x):
        return "lazy generator"
    if _lazy(x):
        return f"lazy {type(x).__name__}"
    return None


def coroutine_finding(fn: Any, result: Any) -> Finding:
    """LB001 for an ``async def`` function: calling it only creates a coroutine."""
    name = getattr(fn, "__name__", "")
    name = name if name.isidentifier() else "f"  # a name to write in code (not "<lambda>", not a qualname)
    return Finding(
        "LB001",
        "the call returned a coroutine: nothing ran",
        Severity.ERROR,
        evidence=f"{label_of(fn)} returned {_short_repr(result)}: an async function runs only when awaited",
        cost="the time measured is that of creating a coroutine (nanoseconds), not the work",
        fix=f"await it in the call: measure(lambda: asyncio.run({name}()))  # not measure({name})",
    )


def _lazy(x: Any) -> bool:
    """A generator, map, filter, zip or other iterator: returned unevaluated."""
    import collections.abc

    return isinstance(x, collections.abc.Iterator) and adapter_for_array(x) is None


def _short_repr(x: Any) -> str:
    r = repr(x)
    return r if len(r) <= 80 else r[:77] + "..."


def steady_findings(m: Measurement) -> list[Finding]:
    """Checks that need the steady-state statistics: noise, dispatch floor, cold start, recompiles."""
    found = []
    median = m.median
    # Under 4 samples there are no quartiles to speak of (and LB008 says the budget allowed few samples).
    if median > 0 and m.n_samples >= 4:
        spread = relative_iqr_ci(m.samples)
        found += judge(Finding(
            "LB003",
            f"noisy measurement: IQR is {m.iqr / median:.0%} of the median",
            Severity.WARNING,
            evidence=f"median {fmt_time(median)}, IQR {fmt_time(m.iqr)} over {m.n_samples} samples"
            + steal_text(m.environment),
            cost="differences smaller than the noise cannot be trusted",
            fix="close other programs, pin threads (taskset), or raise the budget (budget=... / --budget); "
            "to rank implementations, use the ratios of levelbench.compare, paired by round, so drift that "
            "hits every candidate alike cancels out",
            data={"relative_iqr": spread.to_dict(), "steal_share": steal_share(m.environment)},
        ), Threshold("IQR / median", spread, CHECKS.noisy_iqr, fmt="{:.0%}".format))
    if m.dispatch_floor and median > 0:
        share = min(m.dispatch_floor / median, 1.0)
        found += judge(
            Finding(
                "LB004",
                f"dispatch-bound: per-call time is within {median / m.dispatch_floor:.1f}x of the "
                f"{m.framework} dispatch floor",
                Severity.WARNING,
                evidence=f"median {fmt_time(median)}; an empty {m.framework} call takes {fmt_time(m.dispatch_floor)}: "
                f"per-call overhead is at least {share:.0%} of each call, so the time barely follows the work "
                f"(a problem twice as large would take at most {2 - share:.1f}x as long)",
                cost="the time is mostly the framework's fixed cost per call, not its kernels: it says nothing "
                "about how fast the computation runs, and frameworks with a cheaper call (NumPy) look faster",
                fix="time a larger problem (sweep sizes), or batch the small calls into one:\n"
                "batched = jax.jit(jax.vmap(f))   # one call over a stack of inputs\n"
                "levelbench.measure(batched, xs)  # xs: the small inputs stacked along axis 0",
                data={"median": median, "dispatch_floor": m.dispatch_floor, "share": share},
            ),
            Threshold("per-call time / dispatch floor", m.ci.scaled(1 / m.dispatch_floor), CHECKS.dispatch_bound,
                      above=False, fmt="{:.2f}x".format),
        )
    cold = m.cold_start
    if median > 0 and cold > CHECKS.cold_start_ratio * median and cold - median > CHECKS.cold_start_min:
        compiled = (m.compile.total if m.compile and not m.compile.cached else 0.0) + m.compile_in_first_call
        share = min(compiled / cold, 1.0) if cold else 0.0
        found.append(
            Finding(
                "LB005",
                f"the first call took {cold / median:,.0f}x the steady state; {share:.0%} of it was compilation",
                Severity.INFO,
                evidence=f"cold start {fmt_time(cold)} (compile {fmt_time(compiled)}), steady median {fmt_time(median)}",
                cost=f"a single unwarmed timing (e.g. %time f(x)) reports {fmt_time(cold)} instead of {fmt_time(median)}",
                fix="f(x).block_until_ready()  # warm up once, then time\n"
                "# or compile ahead of time: compiled = jax.jit(f).lower(x).compile()",
            )
        )
    if m.recompilations:
        found.append(
            Finding(
                "LB006",
                f"JAX compiled {m.recompilations} time(s) during steady-state sampling",
                Severity.WARNING,
                evidence=f"{m.discarded_samples} sample(s) discarded because a compilation happened in them",
                cost="every recompiling call pays trace + compile time again",
                fix="run levelbench.explain(fn, *args) to name the argument whose shape, dtype or static value changes",
            )
        )
    if not m.target_reached:
        found.append(
            Finding(
                "LB008",
                f"the median's CI did not reach +-{m.rel_ci_target:.0%} within the budget",
                Severity.INFO,
                evidence=f"{m.n_samples} samples; CI {fmt_time(m.ci.lower)} .. {fmt_time(m.ci.upper)} "
                f"(+-{m.ci.relative_half_width:.1%})",
                fix="raise the budget (budget=... / --budget) or reduce noise",
            )
        )
    return found



def work_findings(groups: dict[str, str], ms: dict[str, Measurement], base: str,
                  peaks: dict[str, float]) -> list[Finding]:
    """LB303 (faster than the machine's theoretical peak allows for the work) and LB304 (different work).

    ``peaks`` are the theoretical peak's bounds (`cpu_peak`), never the practical peak: a correct program
    can beat what the BLAS reached on some day, but not physics."""
    out = []
    flops = {n: m.flops for n, m in ms.items()}
    group_work: dict[str, float] = {}
    for name, m in ms.items():
        if flops[name]:
            group = groups[name]
            group_work[group] = max(group_work.get(group, 0.0), flops[name] or 0.0)
    base_flops = flops.get(base)
    for name, m in ms.items():
        work = flops[name] or group_work.get(groups[name])
        peak = peaks.get(m.precision)
        if work and peak and m.median < work / (peak * COMPARING.implausible_margin):
            out.append(Finding(
                "LB303", f"implausibly fast: {fmt_time(m.median)} for {work / 1e9:,.3g} GFLOP is "
                f"{work / m.median / peak:,.1f}x this machine's theoretical peak",
                Severity.ERROR, subject=name,
                evidence=f"needs at least {fmt_time(work / peak)} at the theoretical peak of {peak / 1e9:,.0f} GFLOP/s "
                "(cores x SIMD lanes x FMA units x 2 x the highest clock; `levelbench env` shows each)",
                cost="the timing cannot include the work: something else was timed",
                fix="check that the call computes and returns the result (not a lambda, not a jitted "
                "function returning None) and that the result is waited for",
            ))
        own = flops[name]
        if name != base and own and base_flops and abs(own / base_flops - 1) > COMPARING.different_work:
            out.append(Finding(
                "LB304", f"different work: {own / 1e9:,.3g} GFLOP per call, "
                f"{base} does {base_flops / 1e9:,.3g} ({own / base_flops:.2f}x)",
                Severity.WARNING, subject=name,
                evidence="FLOP counts per call differ by more than 10%",
                cost="a time ratio between different amounts of work says little about the frameworks",
                fix="compare GFLOP/s instead of time, or make the candidates do the same work "
                "(e.g. x @ y with distinct operands for every framework)",
            ))
    return out


def interference_finding(c: Comparison) -> Finding | None:
    """LB305: in one process, candidates timed back to back slow each other (measured, both ways)."""
    iso = c.isolation
    if iso is None or iso.mode != IN_PROCESS:
        return None
    shifts = {}
    for name in c.names:
        if name == c.baseline:
            continue
        b2b = c.back_to_back_ratio(name)
        if b2b is None:
            continue
        quiet = c.ratio(name)
        shift = b2b.estimate / quiet.estimate - 1
        if abs(shift) > COMPARING.distortion_shown and not b2b.contains(quiet.estimate):
            shifts[name] = (b2b, quiet, shift)
    if not shifts:
        return None
    worst = max(shifts, key=lambda n: abs(shifts[n][2]))
    b2b, quiet, shift = shifts[worst]
    times = []
    for name in c.names:
        loose = [t for t in iso.back_to_back.get(name, ()) if t is not None]
        if loose:
            steady = c.measurements[name].median
            times.append(f"{name} {fmt_time(statistics.median(loose))} / {fmt_time(steady)}")
    spinners = sorted(((s, n) for n, s in iso.spin.items() if s > 0.002), reverse=True)
    evidence = [f"{worst}: {b2b.estimate:.3g}x {c.baseline} back to back "
                f"({b2b.lower:.3g}-{b2b.upper:.3g}), {quiet.estimate:.3g}x with quiet gaps "
                f"({quiet.lower:.3g}-{quiet.upper:.3g})"]
    evidence += [f"{n}: {b.estimate:.3g}x back to back, {q.estimate:.3g}x with quiet gaps"
                 for n, (b, q, _) in shifts.items() if n != worst]
    if times:
        evidence.append("per call, back to back / with quiet gaps: " + "; ".join(times))
    if spinners:
        evidence.append("helper threads still running after the calls returned: "
                        + ", ".join(f"{n} {fmt_time(s)}" for s, n in spinners))
    if iso.pools:
        evidence.append("thread pools in this process: " + ", ".join(iso.pools))
    return Finding(
        "LB305",
        f"candidates slow each other down in one process: back to back, {worst} reads "
        f"{b2b.estimate:.3g}x {c.baseline} instead of {quiet.estimate:.3g}x ({shift:+.0%})",
        Severity.WARNING,
        evidence="\n".join(evidence),
        cost="timed one right after another in one process (as plain interleaving, or %timeit of one framework "
        "after another, does), the ratios are off by up to " + f"{max(abs(v[2]) for v in shifts.values()):.0%}",
        fix="the table's ratios were timed with quiet gaps (levelbench waits for the helper threads before each "
        "block). To time each candidate in a process of its own, give builders and isolate=True:\n"
        "levelbench.compare({'numpy': 'bench.py:numpy_dot', 'jax': 'bench.py:jax_dot'}, isolate=True)\n"
        "# or a Workload: levelbench run --workload bench.py:MY_WORKLOAD",
        data={"back_to_back": {n: v[0].to_dict() for n, v in shifts.items()},
              "quiet": {n: v[1].to_dict() for n, v in shifts.items()}},
    )
