"""The report of ``levelbench doctor --run``: per timed interval, what the script measured and what it held.

    002_dot_question.py:11-13  time, 1 sample
        11 | start=time.time()
        12 | test = jnp.dot(x, x.T).block_until_ready()
        13 | print('Time of jnp: {}s'.format(time.time() - start))
      measured  2.01 s (what the script computed)
      held      compilation 1.93 s; work still running at the closing read: none
      LB103 warning  lines 11-13: compilation timed
                     1.93 s of the 2.01 s were JAX tracing and compilation (...)

Renderers only read a `ScriptAudit`.
"""

from __future__ import annotations

import json

from .._results.script_audit import ScriptAudit, ThreadSettings, TimedInterval
from .._values.units import fmt_time, short_path

_STOPPED = {
    "timeout": "was stopped at the time limit (--timeout)",
    "interrupted": "was interrupted (Ctrl-C)",
    "raised": "raised an exception",
    "exited": "called sys.exit with a failure",
    "died": "ended the process without a word",
}


def render_audit_text(audit: ScriptAudit) -> str:
    """The whole report as text, ending with a newline."""
    name = short_path(audit.script)
    found = audit.findings
    head = (f"levelbench doctor --run {name}: {_status(audit)} after {fmt_time(audit.wall_s)}; "
            f"{_count(len(audit.intervals), 'timed interval')}, {_count(len(found), 'finding')}")
    out = [head]
    if audit.partial:
        out.append(f"PARTIAL: the script {_STOPPED.get(audit.status, audit.status)}; what ran before it is reported.")
    if audit.traceback and audit.captured:  # not shown as it ran: shown here
        out.extend(f"  {line}" for line in audit.traceback.rstrip().splitlines())
    elif audit.error:
        out.append(f"  {audit.error}")
    if audit.unrecorded_reads:
        out.append(f"  {audit.unrecorded_reads:,} clock reads past the first million were not recorded: the "
                   "intervals they closed are missing.")
    if audit.threads is not None:
        out.append(f"  {_threads(audit.threads)}")
    if not audit.observed:
        out.append("  nothing observed could be read back from the script's process.")
    elif not audit.intervals:
        out.append("  no clock difference was computed by the script: nothing it timed to audit.")
    for interval in audit.intervals:
        out.append("")
        out.extend(_interval(name, interval))
    if audit.ratios:
        out.append("")
    elif any(i.fair is not None for i in audit.intervals):
        out.extend(_no_ratio(audit))
    for ratio in audit.ratios:
        out.append(f"{ratio.first} / {ratio.second} ({ratio.first_lines} / {ratio.second_lines}): whether both "
                   "compute the same thing is the script's to say")
        out.append(f"  the script's figures imply  {_ratio(ratio.implied)}")
        out.append(f"  re-timed in its process     {_ratio(ratio.fair)} (one after the other)")
        isolated = ratio.isolated
        out.append(f"  isolated workers            {_ratio(isolated.ratio)} [{_ratio(isolated.low)}, "
                   f"{_ratio(isolated.high)}] (levelbench.compare: each in a process of its own, interleaved, "
                   f"{isolated.rounds} rounds, 95% CI)" if isolated is not None else
                   f"  isolated workers            not measured: {ratio.isolated_note}")
    return "\n".join(out) + "\n"


def _threads(threads: ThreadSettings) -> str:
    """``BLAS threads: openblas 2 (threadpoolctl); OMP_NUM_THREADS=1``."""
    pools = ", ".join(f"{library} {count}" for library, count in threads.pools)
    env = ", ".join(f"{name}={value}" for name, value in threads.env)
    if threads.read_by == "threadpoolctl":
        said = f"{pools or 'no BLAS loaded'} (threadpoolctl)"
    else:
        said = "not read (threadpoolctl is not installed)"
    return f"BLAS threads at the script's end: {said}; " + (env or "no thread environment variable set")


def _no_ratio(audit: ScriptAudit) -> list[str]:
    """Where one interval was re-timed and others could not be: no ratio between frameworks, and why."""
    left = [i for i in audit.intervals if i.fair is None and i.fair_note and not i.via_timeit]
    if not left:
        return []
    return ["", "no fair ratio between frameworks: only "
            + ", ".join(f"{i.lines} ({i.fair.framework or 'python'})" for i in audit.intervals if i.fair is not None)
            + " could be re-timed; " + "; ".join(f"{i.lines}: {i.fair_note}" for i in left)]


def _ratio(value: float) -> str:
    return f"{value:,.3g}x" if value < 1000 else f"{value:,.0f}x"


def render_audit_json(audit: ScriptAudit) -> str:
    return json.dumps(audit.to_dict(), indent=2)


def _status(audit: ScriptAudit) -> str:
    if audit.status == "finished":
        return "finished (exit 0)"
    return f"{audit.status} (exit {audit.exit_code})"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _interval(name: str, interval: TimedInterval) -> list[str]:
    where = f"{interval.opening_line}" if interval.opening_line == interval.closing_line else \
        f"{interval.opening_line}-{interval.closing_line}"
    how = "pytest-benchmark's fixture" if interval.magic == "benchmark" else \
        "timeit" if interval.via_timeit else interval.clock
    loop = ", a loop inside each" if interval.loop_inside else ""
    out = [f"{name}:{where}  {how}, {_count(len(interval.samples), 'sample')}{loop}"]
    first = min(interval.opening_line, interval.closing_line)
    for offset, text in enumerate(interval.source.splitlines()):
        out.append(f"    {first + offset:>4} | {text}")
    samples = interval.samples
    spread = "" if len(samples) == 1 else \
        f" (median of {len(samples)}; {fmt_time(min(s.measured for s in samples))} to " \
        f"{fmt_time(max(s.measured for s in samples))})"
    out.append(f"  measured  {fmt_time(interval.measured)}{spread}: what the script computed")
    compile_s = sum(s.compile for s in samples)
    cold = sum(1 for s in samples if s.cold)
    pending = max((s for s in samples), key=lambda s: s.pending)
    held = [f"compilation {fmt_time(compile_s)}" + (f" in {cold} sample{'s' if cold != 1 else ''}" if cold else "")
            if compile_s else "no compilation"]
    held.append(f"work still running at the closing read: {fmt_time(pending.pending)} more "
                f"({_count(pending.pending_arrays, 'array')})" if pending.pending > 0 else
                "no work still running at the closing read")
    calls = max(samples, key=lambda s: s.module_calls)
    if calls.module_calls:
        modes = [f"autograd {'on' if calls.module_calls_grad else 'off'}"]
        if calls.module_calls_training:
            modes.append("training mode (dropout or batch norm)")
        if calls.backward_calls:
            modes.append(_count(calls.backward_calls, "backward pass"))
        held.append(f"torch: {_count(calls.module_calls, 'call')} of `{calls.module}` ({', '.join(modes)})")
    else:
        grad = {s.grad_enabled for s in samples} - {None}
        if grad:
            held.append("torch grad mode " + ("on" if True in grad else "off"))
    out.append(f"  held      {'; '.join(held)}")
    if interval.times_compilation:
        out.append(f"  meant     to time compilation, as the script says: {interval.times_compilation}")
    fair = interval.fair
    if fair is not None:
        ratio = interval.measured / fair.median if fair.median > 0 else float("inf")
        versus = f"{ratio:.3g}x this" if ratio >= 1 else f"{ratio:.2%} of this"
        out.append(f"  fair      {fmt_time(fair.median)} [{fmt_time(fair.low)}, {fmt_time(fair.high)}] "
                   f"(levelbench.measure: warmed, blocked, {fair.samples} samples): the script's figure is {versus}")
    elif interval.fair_note:
        out.append(f"  fair      {interval.fair_note}")
    for finding in interval.findings:
        out.append(f"  {finding.code} {finding.severity.name.lower():<8} {finding.title}")
        out.append(f"  {'':<15}{finding.evidence}")
    return out
