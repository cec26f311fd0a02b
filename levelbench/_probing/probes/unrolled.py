"""LB201-LB202: a Python loop unrolled into the traced program.

Under ``jax.jit`` a Python ``for`` loop is traced once per iteration, so the program, its trace
time and its compile time grow with the loop's length, where ``lax.scan`` traces the body once.
LB201 measures the growth: the call is traced and compiled at three short lengths cut from the
sequence axis (never at the user's length), equations and seconds are fitted against the length,
and the cost at the user's length is projected. LB202 finds the loop in a single trace instead,
as one block of identical equations repeated back to back (when no axis grows the program). A
loop over a global or a closure variable whose steps differ (shapes that grow or shrink) does
neither: the program is traced once more with the user's source lines counted as they run, and a
loop body line that ran many times and produced most of the program's equations is LB201's
evidence.
"""

from __future__ import annotations

import collections
import dataclasses
import sys
import time
from typing import Any

import numpy as np

from ..._values.findings import Finding, Severity
from ..._values.units import fmt_time
from .. import scale as _scale
from ..._results.measurement import CompileTimes
from ..._frameworks.jax_adapter import ADAPTER as JAX
from ..jaxpr import SourceLine, common_user_line, count_equations, is_user_file, open_jaxpr, repeated_block, sub_jaxprs
from ..subject import Compiled, Shortening, Subject, Trace, fresh_jit, trace_once
from .base import Probe

SCAN_FIX = (
    "def step(carry, x_t):\n"
    "    ...                      # the loop body, traced once\n"
    "    return carry, y_t\n"
    "carry, ys = jax.lax.scan(step, carry, xs)   # whatever the length\n"
    "# counted loops: jax.lax.fori_loop(0, n, body, carry); unroll=k trades compile time for speed"
)


@dataclasses.dataclass(frozen=True)
class Growth:
    """Equations and trace+lower+compile seconds at a few lengths, with the linear fit."""

    lengths: tuple[int, ...]
    equations: tuple[int, ...]
    seconds: tuple[float, ...]
    equations_per_step: float
    seconds_per_step: float
    linear: bool
    length: int
    projected_seconds: float
    projected_equations: int
    line: SourceLine | None = None
    order: int = 1  # 1: one loop over the length; 2: nested loops (the program grows with its square)

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["line"] = str(self.line) if self.line else None
        return d


def run(subject: Subject) -> list[Finding]:
    choice = _scale.choose(subject.fn, subject.args, subject.kwargs, subject.scale_axis)
    if isinstance(choice, str):
        subject.measured["scale"] = {"skipped": choice}
        axes = _scale.candidates(subject.fn, subject.args, subject.kwargs, None) if subject.scale_axis is None else []
    else:
        axes = [choice]
        if choice.guessed:  # a wrong guess must not read as "flat": try the other axes too
            axes += _scale.candidates(subject.fn, subject.args, subject.kwargs, choice)
    started = time.perf_counter()
    tried: list[str] = []
    for axis in axes:
        measured = measure_growth(subject, axis)
        if isinstance(measured, str):
            subject.measured.setdefault("scale", {"axis": axis.to_dict(), "skipped": measured})
            continue
        growth, points = measured
        tried.append(f"axis {axis.axis} of {axis.name}")
        if growth.linear or axis is axes[0] or "equations" not in subject.measured.get("scale", {}):
            subject.measured["scale"] = {"axis": axis.to_dict(), **growth.to_dict()}
        if growth.linear:
            _maybe_shorten(subject, axis, growth, points)
            if subject.shortening is None and points[-1].length == axis.length:
                # traced and compiled at the user's own length: the probes after use it, not a second compile
                full = points[-1]
                subject.adopt((full.jitted, full.arrays), full.trace, full.compiled)
            return [unrolled_finding(axis, growth, jitted=subject.is_jitted)]
        # Every axis of the guessed argument is tried whatever it costs (a loop over n in
        # ``m, n = A.shape``); other arguments only while the time allows.
        same_argument = choice is not None and not isinstance(choice, str) and axis.index == choice.index
        if not same_argument and time.perf_counter() - started > max(1.0, subject.budget / 4):
            break
    if tried and "equations" in subject.measured.get("scale", {}):
        subject.measured["scale"]["tried"] = tried
    return repeated_finding(subject) or looped_line_finding(subject)


@dataclasses.dataclass(frozen=True)
class Point:
    """The program traced (and, if it grows, compiled) at one length, kept for the probes after."""

    length: int
    equations: int
    line: SourceLine | None
    jitted: Any
    arrays: tuple
    trace: Trace
    compiled: Compiled | None = None

    @property
    def seconds(self) -> float:
        return self.compiled.split.total if self.compiled else self.trace.seconds


def measure_growth(subject: Subject, scale: _scale.ScaleAxis) -> tuple[Growth, list[Point]] | str:
    """Trace at three short lengths (after a warm-up trace at length 1) and fit the equations; if
    they grow, compile at each length too (an unjitted function: at the longest only) and fit the
    seconds. The fit, or why there is none."""
    lengths = _scale.probe_lengths(scale.length)
    if not lengths:
        return f"{scale.name} is only {scale.length} long along axis {scale.axis}: too short to fit a growth"
    base = _unjitted(subject.fn)
    # The warm-up absorbs first-use costs (imports, caches) that are not per step; a function
    # that needs more than one step simply skips it.
    _trace_at(subject.fn, base, 1, *_scale.shorten(subject.args, subject.kwargs, scale, 1))
    points = []
    for n in lengths:
        point = _trace_at(subject.fn, base, n, *_scale.shorten(subject.args, subject.kwargs, scale, n))
        if isinstance(point, str):
            return f"tracing with {scale.name} cut to {n} along axis {scale.axis} failed: {point}"
        points.append(point)
    eqns = np.array([p.equations for p in points], dtype=float)
    x = np.array(lengths, dtype=float)
    slope, intercept = np.polyfit(x, eqns, 1)
    residual = np.max(np.abs(eqns - (slope * x + intercept)))
    linear = bool(slope >= 0.5 and residual <= max(2.0, 0.05 * eqns.max()))
    order, coefficients = 1, np.array([slope, intercept])
    if not linear and slope >= 0.5:
        quadratic = _quadratic(subject, scale, base, lengths, eqns)
        if quadratic is not None:
            order, coefficients, linear = 2, quadratic, True
    if not linear:  # the program does not grow: nothing to project, nothing to compile
        return Growth(lengths, tuple(int(e) for e in eqns), tuple(p.seconds for p in points),
                      max(round(float(slope), 2), 0.0), 0.0, False, scale.length,
                      max(p.seconds for p in points), int(eqns[-1]), points[-1].line), points
    # Unjitted, the growth is a note on what jitting the function whole would cost, and the budget is
    # better spent on what the call as given costs (LB240): one compile, at the longest length (the
    # user's own when it is at most 16 long, which the probes after reuse), seconds taken as
    # proportional to the program.
    kept = len(points) if subject.is_jitted else 1
    compiled = [_compile(p) for p in points[-kept:]]
    if any(isinstance(p, str) for p in compiled):
        return f"compiling at a short length failed: {next(p for p in compiled if isinstance(p, str))}"
    points = points[:-kept] + [p for p in compiled if isinstance(p, Point)]
    secs = np.array([p.seconds for p in points[-kept:]])
    projected_equations = float(np.polyval(coefficients, scale.length))
    # Seconds follow the equations (trace and compile work per equation), whatever the order.
    t_slope, t_intercept = np.polyfit(eqns[-kept:], secs, 1) if kept > 1 else (0.0, 0.0)
    if t_slope <= 0:  # noise swamped a small growth, or one compile: assume time proportional to the program
        t_slope, t_intercept = secs[-1] / eqns[-1], 0.0
    growth = Growth(
        lengths=lengths,
        equations=tuple(int(e) for e in eqns),
        seconds=tuple(float(s) for s in secs),
        equations_per_step=round(float(slope), 2),
        seconds_per_step=float(t_slope * slope),
        linear=True,
        length=scale.length,
        projected_seconds=max(float(t_intercept + t_slope * projected_equations), float(secs.max())),
        projected_equations=int(round(projected_equations)),
        line=points[-1].line,
        order=order,
    )
    return growth, points


def _quadratic(subject: Subject, scale: _scale.ScaleAxis, base: Any, lengths: tuple[int, ...],
               eqns: np.ndarray) -> np.ndarray | None:
    """Nested loops over the length: a fourth, shorter trace, and a quadratic that fits all four
    counts with a square term that matters (not a straight line bent by noise). Its coefficients."""
    short = max(1, lengths[0] // 2)
    if short in lengths:
        return None
    point = _trace_at(subject.fn, base, short, *_scale.shorten(subject.args, subject.kwargs, scale, short))
    if isinstance(point, str):
        return None
    x = np.array((short, *lengths), dtype=float)
    y = np.array((point.equations, *eqns), dtype=float)
    coefficients = np.polyfit(x, y, 2)
    residual = np.max(np.abs(y - np.polyval(coefficients, x)))
    square = coefficients[0] * x[-1] ** 2
    if coefficients[0] > 0 and residual <= max(2.0, 0.05 * y.max()) and square >= 0.25 * y.max():
        return coefficients
    return None


def _unjitted(fn: Any) -> Any:
    return getattr(fn, "__wrapped__", fn) if JAX.is_jitted(fn) else fn


def _trace_at(fn: Any, base: Any, n: int, args: tuple, kwargs: dict) -> Point | str:
    jitted, arrays = fresh_jit(fn, args, kwargs)
    trace = trace_once(jitted, tuple(arrays), {})
    if not trace.ok:
        text = str(trace.error).strip()
        return f"{type(trace.error).__name__}: {text.splitlines()[0] if text else ''}"
    line = loop_line(open_jaxpr(trace.jaxpr).eqns, base)
    return Point(n, count_equations(trace.jaxpr), line, jitted, tuple(arrays), trace)


def _compile(point: Point) -> Point | str:
    t0 = time.perf_counter()
    try:
        lowered = point.trace.traced.lower()
        t1 = time.perf_counter()
        executable = lowered.compile()
    except Exception as e:  # traces but does not compile at this length
        return f"{type(e).__name__}: {e}"
    split = CompileTimes(point.trace.seconds, t1 - t0, time.perf_counter() - t1, source="aot")
    return dataclasses.replace(point, compiled=Compiled(executable, split))


def loop_line(eqns: Any, fn: Any) -> SourceLine | None:
    """Where the repeated equations come from: a line of the function itself if it is the user's
    (the loop is there), else the user line that made most of them."""
    code = getattr(fn, "__code__", None)
    if code is not None and is_user_file(code.co_filename):
        lines = collections.Counter(
            line for e in eqns for line in _frames_in(e, code.co_filename, {code.co_name, code.co_qualname})
        )
        if lines:
            return lines.most_common(1)[0][0]
    return common_user_line(eqns)


def _frames_in(eqn: Any, filename: str, names: set[str]) -> list[SourceLine]:
    try:
        frames = eqn.source_info.traceback.frames
    except AttributeError:
        return []
    for f in frames:
        if f.file_name == filename and f.function_name in names:
            return [SourceLine(f.file_name, f.line_num, f.function_name)]
    return []


def _maybe_shorten(subject: Subject, scale: _scale.ScaleAxis, growth: Growth, points: list[Point]) -> None:
    limit = max(1.0, subject.budget / 4)
    point = points[1]  # the middle length: representative, and cheap to compile again
    measured_in_full = scale.length <= points[-1].length  # the numbers at the user's length are real
    if scale.length > point.length and growth.projected_seconds > limit and not measured_in_full:
        args, kwargs = _scale.shorten(subject.args, subject.kwargs, scale, point.length)
        subject.shorten(args, kwargs, Shortening(
            scale.name, scale.axis, scale.length, point.length,
            f"compiling all {scale.length} would take ~{fmt_time(growth.projected_seconds)}",
        ), fresh=(point.jitted, point.arrays), trace=point.trace, compiled=point.compiled)


def unrolled_finding(scale: _scale.ScaleAxis, g: Growth, jitted: bool = True) -> Finding:
    per_step = g.equations_per_step
    lengths = "/".join(str(n) for n in g.lengths)
    where = f"; the repeated equations come from {g.line}" if g.line else ""
    measured_at_length = g.length <= g.lengths[-1]
    cost = (
        f"~{fmt_time(g.projected_seconds)} to trace and compile at your length of {g.length} "
        f"({g.projected_equations:,} equations)"
        + ("" if measured_at_length else f", projected from {g.lengths[0]}-{g.lengths[-1]} steps; "
           "compile time often grows faster than linearly")
    )
    nested = g.order == 2
    growth_text = (f"the program grows with the square of its length ({g.equations[-1]:,} equations at "
                   f"{g.lengths[-1]} steps)" if nested else f"{per_step:,.0f} jaxpr equations per step")
    return Finding(
        "LB201",
        f"{'nested Python loops' if nested else 'a Python loop'} over {scale.name} "
        f"{('are unrolled' if nested else 'is unrolled') if jitted else 'would unroll under jax.jit'}: {growth_text}",
        # Unjitted, nothing is unrolled yet: the loop runs op by op (LB240, whose fix mentions it), as
        # for LB202 and a loop over a global; the growth is what jitting it whole would cost.
        Severity.WARNING if jitted else Severity.INFO,
        evidence=(
            f"equations at {lengths} steps along {scale.describe()}: "
            + "/".join(f"{e:,}" for e in g.equations)
            + (" (quadratic: nested loops)" if nested else f" (+{per_step:,.0f} per step, linear)")
            + (f"; trace+lower+compile: {'/'.join(fmt_time(s) for s in g.seconds)}" if len(g.seconds) > 1
               else f"; trace+lower+compile at {g.lengths[-1]} steps: {fmt_time(g.seconds[-1])}")
            + ("" if nested else f" (+{fmt_time(g.seconds_per_step)} per step)") + where
        ),
        cost=cost,
        fix=SCAN_FIX,
        subject=str(g.line) if g.line else scale.name,
        data={
            "cost_seconds": g.projected_seconds,
            "equations_per_step": per_step,
            "seconds_per_step": g.seconds_per_step,
            "lengths": list(g.lengths),
            "equations": list(g.equations),
            "seconds": list(g.seconds),
            "length": g.length,
            "projected_equations": g.projected_equations,
            "argument": scale.name,
            "axis": scale.axis,
            "order": g.order,
        },
    )


def repeated_finding(subject: Subject) -> list[Finding]:
    trace = subject.traced()
    if not trace.ok:
        return []
    block = repeated_block(trace.jaxpr)
    if block is None:
        return []
    eqns = open_jaxpr(trace.jaxpr).eqns
    total = len(eqns)
    line = loop_line(eqns[block.start:block.start + block.covered], _unjitted(subject.fn))
    body = ", ".join(f"{name} x{n}" if n > 1 else name for name, n in list(block.primitives.items())[:5])
    share = block.covered / total
    cost_seconds = trace.seconds * share * (1 - 1 / block.repeats)
    where = f" from {line}" if line else ""
    unrolled = "a Python loop is unrolled" if subject.is_jitted else "a Python loop that would unroll under jax.jit"
    subject.measured["repeated_block"] = {"size": block.size, "repeats": block.repeats, "line": str(line or "")}
    # Unjitted, nothing is unrolled yet: the loop runs op by op (LB240, whose fix mentions it).
    severe = subject.is_jitted and block.repeats >= 16
    return [Finding(
        "LB202",
        f"the same {block.size} equations repeat {block.repeats} times in one trace: {unrolled}",
        Severity.WARNING if severe else Severity.INFO,
        evidence=(
            f"{covered_text(block.covered, total)} are {block.repeats} copies of a block of {block.size} "
            f"({body}){where}; tracing took {fmt_time(trace.seconds)}"
        ),
        cost=(f"at least {fmt_time(cost_seconds)} of tracing spent on copies, and compile time grows with them; "
              "a longer loop costs proportionally more"),
        fix=SCAN_FIX,
        subject=str(line) if line else "",
        data={"cost_seconds": cost_seconds, "block": block.size, "repeats": block.repeats,
              "covered": block.covered, "equations": total},
    )]


def covered_text(covered: int, total: int) -> str:
    return f"{covered:,} of the program's {total:,} top-level equations ({covered / total:.0%})"


# -- a loop over a global or a closure variable: source lines counted while tracing ----------------
LOOP_MIN_RUNS = 16
LOOP_MIN_SHARE = 0.5
LOOP_MIN_EQUATIONS = 40


@dataclasses.dataclass(frozen=True)
class LoopedLine:
    """A loop body line that ran ``runs`` times during one trace, with the body's share of the program."""

    line: SourceLine
    runs: int
    equations: int  # top-level equations (sub-programs weighed by their size) made under the body
    total: int
    body_lines: tuple[int, ...]
    trace_seconds: float

    @property
    def share(self) -> float:
        return self.equations / self.total if self.total else 0.0


def looped_line_finding(subject: Subject) -> list[Finding]:
    """LB201 from one trace: the user's loop body lines that ran many times and made most of the program."""
    trace = subject.traced()
    if not trace.ok or count_equations(trace.jaxpr) < LOOP_MIN_EQUATIONS:
        return []
    found = looped_line(subject.fn, subject.args, subject.kwargs)
    if found is None:
        return []
    subject.measured["looped_line"] = {"line": str(found.line), "runs": found.runs, "equations": found.equations,
                                       "total": found.total, "body_lines": list(found.body_lines)}
    lines = (f"lines {found.body_lines[0]}-{found.body_lines[-1]} of the loop body"
             if len(found.body_lines) > 1 else "the loop body")
    unrolled = "is unrolled" if subject.is_jitted else "would unroll under jax.jit"
    cost_seconds = found.trace_seconds * found.share
    return [Finding(
        "LB201",
        f"a Python loop at {found.line} {unrolled}: it ran {found.runs:,} times in one trace and made "
        f"{found.share:.0%} of the program",
        Severity.WARNING if subject.is_jitted else Severity.INFO,
        evidence=(
            f"traced once with the source lines counted: {found.line} ran {found.runs:,} times, and {lines} "
            f"made {covered_text(found.equations, found.total)}; no input axis grows the program (the loop "
            f"runs over a global, a closure variable or a static value: its steps differ, so no block repeats "
            f"identically); tracing took {fmt_time(found.trace_seconds)}"
        ),
        cost=(f"~{fmt_time(cost_seconds)} of each trace goes to the loop's copies, and compile time grows with "
              "them; a longer loop costs proportionally more"),
        fix=SCAN_FIX,
        subject=str(found.line),
        data={"cost_seconds": cost_seconds, "runs": found.runs, "equations": found.equations, "total": found.total,
              "line": found.line.line, "file": found.line.file, "body_lines": list(found.body_lines)},
    )]


def looped_line(fn: Any, args: tuple, kwargs: dict, *, min_runs: int = LOOP_MIN_RUNS,
                min_share: float = LOOP_MIN_SHARE) -> LoopedLine | None:
    """Trace a fresh jit of ``fn`` while counting how often each line of the user's code runs,
    then weigh each line by the equations made under it (its frame in the equation's traceback).

    The loop body is the set of lines of one function that each ran at least ``min_runs`` times;
    it is returned when the equations made under it are at least ``min_share`` of the program.
    """
    jitted, arrays = fresh_jit(fn, args, kwargs)
    with _LineCounter() as runs:
        trace = trace_once(jitted, tuple(arrays), {})
    if not trace.ok:
        return None
    eqns = open_jaxpr(trace.jaxpr).eqns
    total = sum(1 + sum(count_equations(s) for s in sub_jaxprs(e)) for e in eqns)
    # the body: per function, the lines that ran often enough
    bodies: dict[tuple[str, str], set[int]] = collections.defaultdict(set)
    for (file, function, line), n in runs.items():
        if n >= min_runs:
            bodies[(file, function)].add(line)
    best: LoopedLine | None = None
    for (file, function), lines in bodies.items():
        weight, per_line = 0, collections.Counter()
        for e in eqns:
            hits = [f.line_num for f in _frames(e) if f.file_name == file and f.line_num in lines]
            if hits:
                w = 1 + sum(count_equations(s) for s in sub_jaxprs(e))
                weight += w
                per_line[hits[0]] += w
        if not per_line or weight < max(LOOP_MIN_EQUATIONS, min_share * total):
            continue
        line = per_line.most_common(1)[0][0]
        candidate = LoopedLine(SourceLine(file, line, function), runs[(file, function, line)], weight, total,
                               tuple(sorted(lines)), trace.seconds)
        if best is None or (candidate.equations, candidate.runs) > (best.equations, best.runs):
            best = candidate
    return best


def _frames(eqn: Any) -> list[Any]:
    try:
        return list(eqn.source_info.traceback.frames)
    except AttributeError:
        return []


class _LineCounter:
    """Counts the lines of the user's code run while active (``sys.settrace``), keyed by
    (file, function, line); library frames are not traced line by line."""

    def __init__(self) -> None:
        self.runs: collections.Counter[tuple[str, str, int]] = collections.Counter()
        self._user: dict[str, bool] = {}
        self._previous: Any = None

    def __enter__(self) -> collections.Counter[tuple[str, str, int]]:
        self._previous = sys.gettrace()
        sys.settrace(self._call)
        return self.runs

    def __exit__(self, *exc: Any) -> None:
        sys.settrace(self._previous)

    def _call(self, frame: Any, event: str, arg: Any) -> Any:
        file = frame.f_code.co_filename
        user = self._user.get(file)
        if user is None:
            user = self._user[file] = is_user_file(file)
        return self._line if user else None

    def _line(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            code = frame.f_code
            self.runs[(code.co_filename, code.co_qualname, frame.f_lineno)] += 1
        return self._line


PROBE = Probe("unrolled", ("LB201", "LB202"), run, expensive=True,
              summary="Python loops unrolled under jit: program growth with length, repeated blocks")
