"""Fix trials measured in other processes: the persistent compilation cache (LB270) and XLA's
CPU dot alternatives (LB262), each within explain's budget, each off with ``fixes=False``.

Each entry of `TRIALS` is ``(applies, run)``: ``applies(subject, finding)`` gives the fix's
expression when the trial fits the finding (else None), ``run(subject, finding, deadline)`` the
`FixTrial`, skipped for time (and saying so) when its processes do not fit before ``deadline``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .._values.findings import Finding
from .budget import spent
from .subject import Subject
from .trial import ALTERNATIVES, FAILED, MEASURED, PROCESSES, REFUSED, SKIPPED, FixTrial, fastest, first_line
from . import compile_cache, xla_options

# XLA compile seconds from which a program is compile-heavy: its compilation cache is measured.
CACHE_MIN_COMPILE = 0.1

# -- the persistent compilation cache: a trial across processes ----------------------------------
CACHE_FIX = 'jax.config.update("jax_compilation_cache_dir", ".jax_cache")'


def cache_applies(subject: Subject, f: Finding) -> str | None:
    """The cache's fix for a compile-heavy program the user's code compiles (LB270), else None."""
    if subject.framework != "jax" or not subject.is_jitted or f.data.get("compile", 0.0) < CACHE_MIN_COMPILE:
        return None
    return CACHE_FIX


def cache_trial(subject: Subject, f: Finding, deadline: float) -> FixTrial:
    """The program's compile in a fresh process, then in a second one reading the first's cache.

    Skipped when two fresh processes (jax imported, program compiled) do not fit before ``deadline``.
    """

    import jax

    one_pair = 2 * (compile_cache.IMPORT_SECONDS + 1.5 * (f.data.get("lower", 0.0) + f.data["compile"]))
    remaining = deadline - time.perf_counter()
    if remaining < one_pair:
        return FixTrial(f.code, SKIPPED, CACHE_FIX, kind=PROCESSES,
                        reason=spent(subject.budget, one_pair, remaining, "two fresh processes"))
    pairs = 2 if remaining >= 2 * one_pair else 1
    if jax.config.jax_compilation_cache_dir:
        note = f"your process already sets jax_compilation_cache_dir ({jax.config.jax_compilation_cache_dir})"
    else:
        note = "the program's StableHLO compiled by fresh processes, the cache in a temporary directory removed after"
    try:
        program = compile_cache.lowered_program(subject.fn, subject.args, subject.kwargs)
        runs = compile_cache.two_processes(program, bool(jax.config.jax_enable_x64),
                                           timeout=max(30.0, 4 * one_pair), pairs=pairs)
    except Exception as e:  # not lowerable, or the child failed: say so
        return FixTrial(f.code, FAILED, CACHE_FIX, kind=PROCESSES, reason=f"{type(e).__name__}: {first_line(e)}")
    first, second = min(runs["cold"]), min(runs["warm"])
    note += (f"; {pairs} pair(s) of processes, the best of each side (cold {_ms(runs['cold'])} ms, "
             f"reading the cache {_ms(runs['warm'])} ms)")
    if not runs["entries"]:
        note += "; the first process wrote nothing to the cache, so the second compiled again"
    elif all(runs["hits"]):
        note += "; each reading process counted a cache hit (JAX's own event)"
    return FixTrial(f.code, MEASURED, CACHE_FIX, original=first, fixed=second,
                    speedup=first / second if second > 0 else None, kind=PROCESSES,
                    note=f"{note}; each process also took ~{min(runs['import']):.2g} s to import jax")


def _ms(seconds: list[float]) -> str:
    return ", ".join(f"{x * 1e3:.0f}" for x in seconds)


# -- XLA's alternatives for the CPU dot (LB262): the whole program, each in its own worker -----
XLA_FIX = "XLA's CPU dot alternatives"
# Seconds a worker takes to start, import jax and compile (budget check only).
WORKER_SECONDS = 3.0


def xla_applies(subject: Subject, f: Finding) -> str | None:
    return XLA_FIX if subject.framework == "jax" and "kernel" in f.data else None


def xla_trial(subject: Subject, f: Finding, deadline: float) -> FixTrial:
    """Each offered alternative compiled from the exported program and timed against XLA's default."""

    alternatives, refused = xla_options.offered()
    remaining = deadline - time.perf_counter()
    timing = min(3.0, max(1.0, subject.budget / 5))
    needed = WORKER_SECONDS * (len(alternatives) + 1) / 2 + timing  # two at a time on most machines
    if remaining < needed:
        return FixTrial(f.code, SKIPPED, XLA_FIX, kind=ALTERNATIVES,
                        reason=spent(subject.budget, needed, remaining, f"{len(alternatives) + 1} worker processes"))
    try:
        result = xla_options.measure(subject.fn, subject.args, subject.kwargs, timing,
                                     timeout=120 + 4 * needed, alternatives=alternatives)
    except Exception as e:  # not exportable, or a worker failed to start: say so
        return FixTrial(f.code, FAILED, XLA_FIX, kind=ALTERNATIVES, reason=f"{type(e).__name__}: {first_line(e)}")
    measured = tuple(result["measured"])
    if not measured:
        why = "; ".join(f"{n}: {r.splitlines()[0]}" for n, r in {
            **refused, **result["failed"], **{n: "changes the results, not timed" for n in result["changed"]}}.items())
        return FixTrial(f.code, REFUSED if result["changed"] else FAILED, XLA_FIX, kind=ALTERNATIVES, reason=why or "no alternative ran")
    left_out = "; ".join(f"{n} {why}" for n, why in refused.items())
    if result.get("changed"):
        left_out = "; ".join(filter(None, [left_out, *(f"{n} changes the results, not timed"
                                                       for n in result["changed"])]))
    placebo = result.get("placebo")
    if placebo:
        floor = (f"XLA's default compiled again in another worker: {1 / placebo['ratio']:.3g}x (95% CI "
                 f"{1 / placebo['upper']:.3g}-{1 / placebo['lower']:.3g}x), the noise floor")
        left_out = "; ".join(filter(None, [floor, left_out and f"not tried: {left_out}"]))
    elif left_out:
        left_out = f"not tried: {left_out}"
    best = fastest(measured)
    if best is None:
        return FixTrial(f.code, MEASURED, XLA_FIX, original=result["default_seconds"], kind=ALTERNATIVES,
                        alternatives=measured, note=left_out)
    return FixTrial(f.code, MEASURED, best["code"], original=result["default_seconds"], fixed=best["seconds"],
                    speedup=1 / best["ratio"], speedup_low=1 / best["upper"], speedup_high=1 / best["lower"],
                    kind=ALTERNATIVES, alternatives=measured, note=left_out)


TRIALS: dict[str, tuple[Callable[[Subject, Finding], str | None], Callable[[Subject, Finding, float], FixTrial]]] = {
    "LB270": (cache_applies, cache_trial),
    "LB262": (xla_applies, xla_trial),
}
