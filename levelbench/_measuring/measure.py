"""`measure`: one callable timed correctly, whatever the framework (the engine; `levelbench.measure`
adds ``save=``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .._results.measurement import Measurement
from .._values.arguments import flag, function, number, text
from .._values.settings import MEASURING
from .checks import label_of
from .environment import collect, cpu_times, load_average
from .._values.gc import gc_paused
from .sampler import Options, Prepared, Timer


def measure(
    fn: Callable[..., Any],
    *args: Any,
    label: str | None = None,
    budget: float = MEASURING.budget,
    rel_ci: float = MEASURING.rel_ci,
    target_sample_time: float = MEASURING.target_sample_time,
    min_samples: int = MEASURING.min_samples,
    max_samples: int = MEASURING.max_samples,
    number: int | None = None,
    flops: float | None = None,
    count_flops: bool = True,
    timer: Timer = time.perf_counter,
    environment: bool = True,
    **kwargs: Any,
) -> Measurement:
    """Time ``fn(*args, **kwargs)`` correctly, whatever the framework.

    The first call is timed on its own (for a ``jax.jit`` function, after tracing, lowering and
    compiling it one by one through ``jax.stages``). Then calls-per-sample is calibrated so a
    sample lasts ``target_sample_time``, and samples are taken, with GC off and every call
    waiting for its whole output, until the 95% CI of the median is within ``rel_ci`` of it or
    ``budget`` seconds are spent (at least ``min_samples``). A sample during which JAX compiled
    is discarded and reported. FLOPs per call come from ``flops=`` or, with ``count_flops``, from
    XLA's cost analysis (jitted JAX) or PyTorch's FLOP counter. Keyword arguments not listed
    here go to ``fn`` (wrap ``fn`` in ``functools.partial`` if a name collides).

    The median's CI comes from order statistics (distribution-free), not a bootstrap.

    ``fn`` runs in this process, so nothing here can stop a call that never returns (a thread
    cannot be killed, and an alarm signal does not interrupt native code). For a hard limit,
    time it from the command line (``levelbench measure EXPR --timeout S``: a child process,
    killed at the limit) or as a workload (``levelbench run --timeout S``). ``number`` is at most
    ``10**9`` calls per sample.

    Example:
        >>> import levelbench, numpy as np
        >>> x = np.ones((200, 200))
        >>> m = levelbench.measure(np.dot, x, x, budget=0.5)
        >>> m.median > 0
        True
    """
    _check(fn, label, flops, count_flops, timer, environment)
    options = Options(budget, target_sample_time, rel_ci, min_samples, max_samples, number=number)
    load_at_start = load_average() if environment else None
    cpu_at_start = cpu_times() if environment else None
    name = label or label_of(fn)
    prepared = Prepared(fn, args, kwargs, name, options, timer)
    prepared.calibrate()
    with gc_paused(collect=True):
        sampling_start = timer()
        reached = False
        while len(prepared.samples) < options.max_samples:
            prepared.sample()
            if prepared.ci_width_ok():
                reached = True
                break
            enough = len(prepared.samples) >= options.min_samples
            if enough and timer() - sampling_start >= options.budget:
                break
            if prepared.discarded > MEASURING.no_samples_after * options.min_samples and not prepared.samples:
                break
    if flops is None and count_flops:
        flops = prepared.adapter.flops(fn, args, kwargs)
    env = collect(load_at_start, cpu_at_start) if environment else {}
    return prepared.measurement(target_reached=reached, flops=flops, environment=env)


def _check(fn: Any, label: Any, flops: Any, count_flops: Any, timer: Any, environment: Any) -> None:
    """The arguments `Options` does not check, before anything runs."""
    if not callable(fn):
        fix = ("pass the function and its arguments apart, e.g. levelbench.measure(np.sin, x), "
               "or wrap an expression: levelbench.measure(lambda: x @ x)")
        function("measure", "fn (the first argument)", fn, fix)
    text("measure", "label", label, optional=True)
    number("measure", "flops", flops, "None or a number of floating-point operations per call >= 0", low=0,
           optional=True)
    flag("measure", "count_flops", count_flops)
    function("measure", "timer", timer, "e.g. time.perf_counter")
    flag("measure", "environment", environment)
