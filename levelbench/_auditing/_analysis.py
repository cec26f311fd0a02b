"""From the child's raw observations to timed intervals and findings: pure, testable without a process.

The raw observations (`_observer.Observer.to_json`): the user's clock reads on a reference clock, the pairs
of reads the script subtracted, and JAX's compile events with their end on the reference clock. A pair is
one sample of an interval; the samples of one line pair (a loop) form one `TimedInterval`.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from .._results.script_audit import FairFigure, IsolatedRatio, Sample, TimedInterval
from .._values.catalogue import rule_for
from .._values.findings import Finding
from .._values.intent import compilation_meant
from .._values.units import fmt_bytes, fmt_time
from ._dispatch import (EAGER, EMPTY_OUTPUTS, JIT_CALLS, TO_DEVICE, TO_DEVICE_BYTES, TO_HOST, TO_HOST_BYTES,
                        UNWAITED)
from ._observer import CLOCK, COUNTS, GRAD, LINE, MAGIC, PENDING, PENDING_ARRAYS, REF, TRACE_EVENT, VALUE, VIA_TIMEIT
from ._torch import BACKWARD

PENDING_FLOOR = 1e-4
"""Seconds of work left at the closing read below which it is noise (a result finishing as it is read)."""
SHARE = 0.05
"""Pending work or compilation counts when it is at least this share of what the script measured."""
EAGER_FLOOR = 10
"""Eager JAX dispatches per call timed (the median sample's; timeit's samples time many calls) from which the
computation is timed op by op (LB114)."""


def intervals(raw: Mapping[str, Any], source: str) -> tuple[TimedInterval, ...]:
    """The script's timed intervals, each with its samples and findings, in the order first sampled."""
    reads: Sequence[Sequence[Any]] = raw.get("reads", ())
    events = sorted(((str(e[0]), float(e[1]), int(e[2]), str(e[3])) for e in raw.get("events", ())),
                    key=lambda e: e[2])
    ends = [e[2] for e in events]
    made = raw.get("jits_created", ())
    jitted = {str(c[1]) for c in made}  # the functions the script jitted: a compile of one again is a recompile
    created = sorted((int(c[0]), str(c[1])) for c in made if len(c) < 3 or c[2])  # new function objects only
    created_at = [c[0] for c in created]
    module_calls = [(int(c[0]), str(c[1]), bool(c[2]), bool(c[3]), bool(c[4])) for c in raw.get("torch_calls", ())]
    module_call_at = [c[0] for c in module_calls]
    groups: dict[tuple[int, int, str], list[Sample]] = {}
    timeit_groups: set[tuple[int, int, str]] = set()
    magics: dict[tuple[int, int, str], str] = {}
    calibrating = {tuple(p) for p in raw.get("calibrating", ())}
    loops = {str(k): int(v) for k, v in raw.get("loops", {}).items()}
    dropped = {str(k): str(v) for k, v in raw.get("functions_dropped", {}).items()}
    subtracted_at = raw.get("subtracted_at", {})
    subtracted: dict[tuple[int, int, str], set[int]] = {}
    for first, last in dict.fromkeys(tuple(p) for p in raw.get("pairs", ())):
        opening, closing = reads[first], reads[last]
        key = (int(opening[LINE]), int(closing[LINE]), str(closing[CLOCK]))
        inside = events[bisect.bisect_right(ends, opening[REF]):bisect.bisect_right(ends, closing[REF])]
        jits = created[bisect.bisect_right(created_at, opening[REF]):bisect.bisect_right(created_at, closing[REF])]
        modules = module_calls[bisect.bisect_right(module_call_at, opening[REF]):
                               bisect.bisect_right(module_call_at, closing[REF])]
        pair = f"{first}:{last}"
        groups.setdefault(key, []).append(_sample(opening, closing, inside, (first, last) in calibrating, jits,
                                                   loops.get(pair, 1), dropped.get(pair, ""), modules))
        if pair in subtracted_at:
            subtracted.setdefault(key, set()).add(int(subtracted_at[pair]))
        if len(closing) > MAGIC and closing[MAGIC]:
            magics[key] = str(closing[MAGIC])
        if opening[VIA_TIMEIT] and closing[VIA_TIMEIT]:
            timeit_groups.add(key)
    lines = source.splitlines()
    spans = _loop_spans(source)
    fair = raw.get("fair", {})
    found = []
    for (opening_line, closing_line, clock), samples in groups.items():
        said = subtracted.get((opening_line, closing_line, clock), set())
        low, high = sorted((opening_line, closing_line))
        figure, note = _fair(fair.get(f"{opening_line}:{closing_line}"), raw.get("status", "finished"))
        interval = TimedInterval(
            opening_line=opening_line, closing_line=closing_line, clock=clock, samples=tuple(samples),
            via_timeit=(opening_line, closing_line, clock) in timeit_groups,
            loop_inside=any(low < start and end < high for start, end in spans),
            source="\n".join(lines[low - 1:min(high, low + 14)]),
            fair=figure, fair_note=note, magic=magics.get((opening_line, closing_line, clock), ""),
            times_compilation=_compilation_words(lines, low, high, said),
        )
        found.append(_with_findings(interval, jitted))
    return tuple(found)


def isolated_ratios(raw: Mapping[str, Any]) -> tuple[IsolatedRatio, ...]:
    """The framework pairs the child timed in isolated workers (`_isolated`), or why it could not."""
    found = []
    for entry in raw.get("isolated", ()):
        first, second = (tuple(int(part) for part in str(entry[k]).split(":")) for k in ("first", "second"))
        if "refused" in entry:
            found.append(IsolatedRatio(first, second, note=str(entry["refused"])))  # type: ignore[arg-type]
        else:
            found.append(IsolatedRatio(first, second, float(entry["ratio"]), float(entry["low"]),  # type: ignore[arg-type]
                                       float(entry["high"]), int(entry["rounds"])))
    return tuple(found)


def _compilation_words(lines: list[str], low: int, high: int, subtracted: set[int]) -> str:
    """The script's words saying that the interval from line ``low`` to ``high`` (subtracted on the lines
    ``subtracted``) times compilation on purpose (`levelbench._values.intent`, the static LB103's policy too)."""
    return compilation_meant(lambda n: lines[n - 1] if 0 < n <= len(lines) else "", low, high, subtracted)


def _sample(opening: Sequence[Any], closing: Sequence[Any], inside: list[tuple[str, float, int, str]],
            calibration: bool = False, jits: Sequence[tuple[int, str]] = (), loops: int = 1,
            function_dropped: str = "", modules: Sequence[tuple[int, str, bool, bool, bool]] = ()) -> Sample:
    """One sample, from its two reads, the compile events that ended between them, the jits made then and the
    torch module calls (`_torch.TorchCalls`) made then."""
    before = opening[COUNTS] if len(opening) > COUNTS else []
    after = closing[COUNTS] if len(closing) > COUNTS else []
    counts = [int(b) - int(a) for a, b in zip(before, after)] if before else list(after or [])
    counts += [0] * (UNWAITED + 1 - len(counts))
    dispatched = counts[EAGER] + counts[JIT_CALLS]
    unwaited = min(int(after[UNWAITED]), dispatched) if len(after) > UNWAITED else 0
    created: dict[str, int] = {}
    for _, name in jits:
        created[name] = created.get(name, 0) + 1
    compiled: dict[str, float] = {}
    traces: dict[str, int] = {}
    for event, seconds, _, name in inside:
        function = _function(name)
        compiled[function] = compiled.get(function, 0.0) + seconds
        if event == TRACE_EVENT:
            traces[function] = traces.get(function, 0) + 1
    measured = float(closing[VALUE]) - float(opening[VALUE])
    # JAX work runs in order: of what still ran at the closing read, the part that was already running at the
    # opening read and outlasted the interval (an earlier cell's work, late on a loaded machine) is not its own
    outlasting = max(0.0, float(opening[PENDING]) - measured)
    return Sample(
        measured=measured,
        compile=sum(e[1] for e in inside),
        compiled=compiled, traces=traces,
        pending=max(0.0, float(closing[PENDING]) - outlasting), pending_arrays=int(closing[PENDING_ARRAYS]),
        grad_enabled=closing[GRAD], calibration=calibration,
        eager_dispatches=counts[EAGER], jit_calls=counts[JIT_CALLS], to_device=counts[TO_DEVICE],
        to_device_bytes=counts[TO_DEVICE_BYTES], to_host=counts[TO_HOST], to_host_bytes=counts[TO_HOST_BYTES],
        jits_created=created, unwaited=unwaited, loops=loops, empty_outputs=counts[EMPTY_OUTPUTS],
        function_dropped=function_dropped, **_module_calls(modules),
    )


def _module_calls(modules: Sequence[tuple[int, str, bool, bool, bool]]) -> dict[str, Any]:
    """The torch fields of a sample: its outermost module calls, with grad on, in a training mode that changes the
    computation, its backward passes and the module called most."""
    forward = [c for c in modules if c[1] != BACKWARD]
    names: dict[str, int] = {}
    for call in forward:
        names[call[1]] = names.get(call[1], 0) + 1
    return {"module_calls": len(forward), "module_calls_grad": sum(c[2] for c in forward),
            "module_calls_training": sum(c[4] for c in forward), "backward_calls": len(modules) - len(forward),
            "module": max(names, key=names.__getitem__) if names else ""}


def _fair(figure: Mapping[str, Any] | None, status: str) -> tuple[FairFigure | None, str]:
    if figure is None:
        if status != "finished":
            return None, "not re-timed: the script did not finish"
        return None, ("not re-timed: the difference was computed outside the script's code (timeit or the benchmark "
                      "fixture repeats it already)")
    if "refused" in figure:
        return None, f"not re-timed: {figure['refused']}"
    return FairFigure(float(figure["median"]), float(figure["low"]), float(figure["high"]), int(figure["samples"]),
                      str(figure.get("framework", ""))), ""


def _function(name: str) -> str:
    """``jit(f)`` (the backend compile's name) and ``f`` (the trace's) are one function."""
    return name[4:-1] if name.startswith("jit(") and name.endswith(")") else name


def _loop_spans(source: str) -> list[tuple[int, int]]:
    """(first line, last line) of every loop statement in the script (none if it does not parse)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    return [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))]


def _with_findings(interval: TimedInterval, jitted: set[str] | frozenset[str] = frozenset()) -> TimedInterval:
    # an interval the script says times compilation measures it on purpose: its compiles are no finding
    recompiled = [] if interval.times_compilation else [f for f in _retraced(interval, jitted) if f is not None]
    # a compile that recurs is reported as the recompilation (LB111, LB117), not as a first call timed (LB103)
    compiled = None if recompiled or interval.times_compilation else _compile_timed(interval)
    checks = (_never_called(interval), _unawaited(interval), compiled, _single_sample(interval), *recompiled,
              _op_by_op(interval), _transfers(interval), _returns_nothing(interval), _autograd_on(interval),
              _training_mode(interval))
    found = [f for f in checks if f is not None]
    return TimedInterval(**{**interval.__dict__, "findings": tuple(found)})


def _finding(code: str, interval: TimedInterval, title: str, evidence: str, data: dict[str, Any]) -> Finding:
    rule = rule_for(code)
    return Finding(code=code, title=title, severity=rule.severity, evidence=evidence, cost=rule.cost, fix=rule.good,
                   subject=interval.lines, data=data)


def _share(part: float, whole: float) -> str:
    share = part / whole if whole > 0 else 0.0
    return f"{share:.0%}" if share >= 0.01 else f"{share:.2%}"


def _of_samples(hits: int, interval: TimedInterval) -> str:
    total = len(interval.timed)
    return "" if total == 1 else f" (in {hits} of {total} samples; the worst shown)"


def _unawaited(interval: TimedInterval) -> Finding | None:
    """LB102: JAX work still running when the closing clock was read, or, where it had finished by then (small
    work on CPU runs as it is dispatched), dispatched in every sample and not waited for before the read."""
    hits = [s for s in interval.timed if s.pending > PENDING_FLOOR and s.pending >= SHARE * max(s.measured, 0.0)]
    if not hits:
        return _not_waited_for(interval)
    worst = max(hits, key=lambda s: s.pending)
    whole = worst.measured + worst.pending
    evidence = (f"the clock stopped {fmt_time(worst.measured)} after it started; the JAX work still running then "
                f"({worst.pending_arrays} array{'s' if worst.pending_arrays != 1 else ''}) finished "
                f"{fmt_time(worst.pending)} later: the script measured {_share(worst.measured, whole)} of "
                f"{fmt_time(whole)}{_of_samples(len(hits), interval)}")
    return _finding("LB102", interval, f"{interval.lines}: the clock stopped before the JAX work finished", evidence,
                    {"measured": worst.measured, "pending": worst.pending, "samples_pending": len(hits)})


def _not_waited_for(interval: TimedInterval) -> Finding | None:
    # a helper times other code too; jitted calls that returned nothing leave nothing to wait for (LB107 says so)
    dispatching = [s for s in interval.timed if s.eager_dispatches + s.jit_calls - s.empty_outputs]
    if not dispatching or not all(s.unwaited for s in dispatching):
        return None
    sample = sorted(dispatching, key=lambda s: s.unwaited)[len(dispatching) // 2]
    evidence = (f"the clock stopped {sample.unwaited} JAX dispatch{'es' if sample.unwaited != 1 else ''} after the "
                f"script last waited for a result (no block_until_ready, no read of a value), in "
                f"{'every one' if len(dispatching) > 1 else 'each'} of the {len(dispatching)} sample"
                f"{'s' if len(dispatching) != 1 else ''} that ran JAX work; here the work was done by then (this backend ran it "
                "as it was dispatched), on an asynchronous one (GPU, TPU, larger CPU work) the clock stops before it")
    return _finding("LB102", interval, f"{interval.lines}: the clock stopped without waiting for the JAX work",
                    evidence, {"unwaited": sample.unwaited, "measured": sample.measured, "samples_pending": 0})


def _compile_timed(interval: TimedInterval) -> Finding | None:
    """LB103: tracing and compilation ran inside the interval."""
    hits = [s for s in interval.timed if s.compile > 0 and s.compile >= SHARE * max(s.measured, 0.0)]
    if not hits:
        return None
    worst = max(hits, key=lambda s: s.compile)
    parts = ", ".join(f"{name or '?'} {fmt_time(seconds)}" for name, seconds in
                      sorted(worst.compiled.items(), key=lambda kv: -kv[1]))
    which = "the first sample" if worst is interval.timed[0] and len(interval.timed) > 1 else "it"
    evidence = (f"{fmt_time(worst.compile)} of the {fmt_time(worst.measured)} were JAX tracing and compilation "
                f"({parts}), inside {which}{_of_samples(len(hits), interval)}")
    traced = sorted({name for s in hits for name in s.traces})
    title = f"{interval.lines}: compilation timed" + (f" (first call of {', '.join(traced)})" if traced else "")
    return _finding("LB103", interval, title, evidence,
                    {"compile": worst.compile, "measured": worst.measured, "samples_compiling": len(hits)})


def _single_sample(interval: TimedInterval) -> Finding | None:
    """LB104: the interval was sampled once, around one stretch of code with no loop in it."""
    if len(interval.samples) != 1 or interval.via_timeit or interval.loop_inside or interval.magic == "time":
        return None
    sample = interval.samples[0]
    cold = f", cold: {fmt_time(sample.compile)} of it compilation" if sample.cold else ""
    evidence = f"sampled once: {fmt_time(sample.measured)}{cold}; one number, no spread to judge it by"
    return _finding("LB104", interval, f"{interval.lines}: a single timing sample", evidence,
                    {"measured": sample.measured, "cold": sample.cold})



def _median_sample(interval: TimedInterval, key: Any) -> Sample:
    ordered = sorted(interval.timed, key=key)
    return ordered[len(ordered) // 2]


def _op_by_op(interval: TimedInterval) -> Finding | None:
    """LB114: JAX operations dispatched one by one inside the interval, many per sample."""
    sample = _median_sample(interval, lambda s: s.eager_dispatches / s.loops)
    per_call = sample.eager_dispatches // sample.loops
    if per_call < EAGER_FLOOR:
        return None
    per = sample.measured / sample.eager_dispatches if sample.measured > 0 else 0.0
    calls = f" per call of the {sample.loops} it timed" if sample.loops > 1 else ""
    evidence = (f"{per_call} JAX operations were dispatched one by one (outside any jit){calls} in the median "
                f"sample of {fmt_time(sample.measured)}, {fmt_time(per)} each"
                + (f", beside {sample.jit_calls // sample.loops} jitted call"
                   f"{'s' if sample.jit_calls // sample.loops != 1 else ''}" if sample.jit_calls else "")
                + ": each pays Python dispatch (and a compile the first time for each shape); under jit they fuse "
                  "into one dispatch")
    return _finding("LB114", interval, f"{interval.lines}: {per_call} eager JAX dispatches per call timed",
                    evidence, {"eager_dispatches": sample.eager_dispatches, "jit_calls": sample.jit_calls,
                               "measured": sample.measured})


def _transfers(interval: TimedInterval) -> Finding | None:
    """LB115: arrays (not scalars) copied between host and device in every call timed, beside computation: a
    timing of a transfer alone measures the transfer on purpose."""
    if not all(s.to_device + s.to_host >= s.loops and s.eager_dispatches + s.jit_calls for s in interval.timed):
        return None
    sample = _median_sample(interval, lambda s: (s.to_device_bytes + s.to_host_bytes) / s.loops)
    parts = []
    if sample.to_device:
        parts.append(f"{sample.to_device} host-to-device ({fmt_bytes(sample.to_device_bytes)})")
    if sample.to_host:
        parts.append(f"{sample.to_host} device-to-host ({fmt_bytes(sample.to_host_bytes)})")
    calls = f", {sample.loops} calls" if sample.loops > 1 else ""
    evidence = (f"every call timed copied arrays between host and device; the median sample ({fmt_time(sample.measured)}"
                f"{calls}): {' and '.join(parts)}; the figure includes the copies, not only the computation")
    return _finding("LB115", interval, f"{interval.lines}: host-device transfers timed", evidence,
                    {"to_device": sample.to_device, "to_device_bytes": sample.to_device_bytes,
                     "to_host": sample.to_host, "to_host_bytes": sample.to_host_bytes, "measured": sample.measured})


def _retraced(interval: TimedInterval, jitted: set[str] | frozenset[str]) -> tuple[Finding | None, Finding | None]:
    """LB111 and LB117: a function the script jitted traced again: the jit cache missed call after call, because ``jax.jit`` was called on a new function object inside
    the sample (LB111), or for new shapes or static values (LB117). JAX's own operations run eagerly compile once
    per shape each, under the same names: that is a first use (LB103), not a recompile."""
    counts: dict[str, int] = {}
    fresh: dict[str, int] = {}
    for sample in interval.timed:
        for function, traced in sample.traces.items():
            if function not in jitted:
                continue
            counts[function] = counts.get(function, 0) + traced
            if sample.jits_created.get(function):
                fresh[function] = fresh.get(function, 0) + traced
    again = {function: n for function, n in counts.items() if n >= 2}
    if not again:
        return None, None
    rejitted = {function: n for function, n in fresh.items() if n >= 2}
    reshaped = {function: n for function, n in again.items() if function not in rejitted}
    return (_rejitted(interval, rejitted) if rejitted else None,
            _reshaped(interval, reshaped) if reshaped else None)


def _rejitted(interval: TimedInterval, rejitted: dict[str, int]) -> Finding:
    function, times = max(rejitted.items(), key=lambda kv: kv[1])
    seconds = sum(s.compiled.get(function, 0.0) for s in interval.timed)
    made = sum(s.jits_created.get(function, 0) for s in interval.timed)
    evidence = (f"`jax.jit` was called on `{function}` {made} times inside the timing and `{function}` was traced "
                f"and compiled {times} times in {len(interval.timed)} samples ({fmt_time(seconds)} of "
                "compilation in all): a jit made afresh (of a new lambda or partial) has an empty cache")
    return _finding("LB111", interval, f"{interval.lines}: `{function}` jitted afresh and compiled {times} times",
                    evidence, {"function": function, "samples_retraced": times, "compile": seconds,
                                          "jits_created": made})


def _reshaped(interval: TimedInterval, again: dict[str, int]) -> Finding:
    function, times = max(again.items(), key=lambda kv: kv[1])
    seconds = sum(s.compiled.get(function, 0.0) for s in interval.timed)
    evidence = (f"`{function}` was traced and compiled {times} times in {len(interval.timed)} sample"
                f"{'s' if len(interval.timed) != 1 else ''} ({fmt_time(seconds)} of compilation in all): its jit "
                "cache missed call after call, for a new "
                "input shape, dtype or static value")
    return _finding("LB117", interval, f"{interval.lines}: `{function}` compiled {times} times", evidence,
                    {"function": function, "samples_retraced": times, "compile": seconds})


def _never_called(interval: TimedInterval) -> Finding | None:
    """LB101: timeit's statement created a function (``%timeit lambda: f(x)``) and dropped it uncalled."""
    hits = [s for s in interval.timed if s.function_dropped]
    if not hits:
        return None
    sample = _median_sample(interval, lambda s: s.measured / s.loops)
    name = hits[0].function_dropped
    evidence = (f"the statement timed made a function ({name}) and dropped it without calling it, in "
                f"{len(hits)} of {len(interval.timed)} samples; the median sample timed {sample.loops} call"
                f"{'s' if sample.loops != 1 else ''} at {fmt_time(sample.measured / sample.loops)} each: the cost "
                f"of creating a function object, with {sample.eager_dispatches + sample.jit_calls} JAX dispatches; "
                "its body never ran")
    return _finding("LB101", interval, f"{interval.lines}: the timed {name} is never called", evidence,
                    {"function": name, "per_call": sample.measured / sample.loops, "samples": len(hits)})


def _returns_nothing(interval: TimedInterval) -> Finding | None:
    """LB107: jitted calls inside the interval returned no array (None or an empty pytree): XLA may prune the
    computation whose result nobody gets, and the script cannot wait for it."""
    hits = [s for s in interval.timed if s.empty_outputs]
    if not hits:
        return None
    sample = _median_sample(interval, lambda s: s.empty_outputs / s.loops)
    per = sample.measured / sample.loops
    compiled = f"; {fmt_time(sample.compile)} of it compilation" if sample.compile else ""
    evidence = (f"{sample.empty_outputs} of the {sample.jit_calls} jitted call{'s' if sample.jit_calls != 1 else ''} "
                f"in the median sample returned nothing (None or an empty pytree), in {len(hits)} of "
                f"{len(interval.timed)} samples; {fmt_time(per)} per call timed{compiled}: compiled and dispatched, "
                "but with no output XLA may drop the work, and the result cannot be waited for or used")
    return _finding("LB107", interval, f"{interval.lines}: a jitted function timed returns nothing", evidence,
                    {"empty_outputs": sample.empty_outputs, "jit_calls": sample.jit_calls, "per_call": per,
                     "samples": len(hits)})


def _inference(interval: TimedInterval) -> list[Sample]:
    """The samples that called torch modules and ran no backward pass: inference, if every such sample is one."""
    calling = [s for s in interval.timed if s.module_calls]
    return [] if not calling or any(s.backward_calls for s in calling) else calling


def _autograd_on(interval: TimedInterval) -> Finding | None:
    """LB112: a torch module's inference timed with autograd on, in every sample that called one (a sample with
    a backward pass is a training step, where autograd is the point)."""
    calling = _inference(interval)
    if not calling or not all(s.module_calls_grad == s.module_calls for s in calling):
        return None
    sample = _median_sample(interval, lambda s: s.module_calls)
    where = f"any of the {len(calling)} samples" if len(calling) > 1 else "it"
    evidence = (f"`{sample.module}` was called {sample.module_calls} time{'s' if sample.module_calls != 1 else ''} in "
                f"the median sample ({fmt_time(sample.measured)}), each with autograd on (torch.is_grad_enabled() at "
                f"the call), and no backward pass ran in {where}: every call recorded a graph for a backward pass "
                "that never came; a JAX forward pays nothing of the kind")
    return _finding("LB112", interval, f"{interval.lines}: `{sample.module}` timed with autograd on", evidence,
                    {"module": sample.module, "module_calls": sample.module_calls, "measured": sample.measured})


def _training_mode(interval: TimedInterval) -> Finding | None:
    """LB281: a torch module's inference timed in training mode, where its dropout or batch norm makes that another
    computation than inference."""
    calling = _inference(interval)
    if not calling or not all(s.module_calls_training for s in calling):
        return None
    sample = _median_sample(interval, lambda s: s.module_calls_training)
    evidence = (f"`{sample.module}` was called in training mode ({sample.module_calls_training} of "
                f"{sample.module_calls} calls in the median sample, {fmt_time(sample.measured)}), and it has dropout "
                "or batch norm: what was timed drops activations or updates running statistics, not the inference a "
                "JAX forward computes; no backward pass ran, so it is not a training step")
    return _finding("LB281", interval, f"{interval.lines}: `{sample.module}` timed in training mode", evidence,
                    {"module": sample.module, "module_calls_training": sample.module_calls_training,
                     "measured": sample.measured})
