"""A ``doctor --run`` run in the HTML report: one timeline per timed interval, then its findings.

Each timeline is inline SVG drawn here (no matplotlib: a few rectangles, with their labels as text a
reader can select and search). On one time axis from the opening clock read:

- a sample's bar (the first, the median, the one that left the most work running) runs from the
  opening read to the closing read (what the script measured), the seconds of compilation inside it
  drawn over its start;
- the work still running when the clock stopped continues past the closing read, hatched, to when
  it finished;
- under a sample that dispatched JAX work or moved arrays, a strip of marks: tick marks across its bar
  for the dispatches (eager operations one by one, jitted calls), a downward triangle at the opening read
  for host-to-device transfers and an upward one at the closing read for device-to-host ones, each with
  its count (and bytes) in words beside it;
- the fair figure (`levelbench.measure`: warmed, blocked) is a bar of its own below, with its 95% CI.

Compilation is drawn as a share of the interval: its seconds are measured, not where in the interval
it ran. Dispatches and transfers are counted per sample, not timed, so their marks stand by kind, not
at the time they happened; the caption says so. Every label says what it is, so no legend is needed.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from .._results.script_audit import Sample, TimedInterval
from .._results.script_record import stored_interval
from .._values.units import fmt_bytes, fmt_time
from ._findings import finding_item
from ..store import Run

_WIDTH, _LEFT, _RIGHT, _ROW, _MARKS = 960, 170, 40, 44, 32
_COLOURS = {"measured": "#8fb8de", "compile": "#e8893a", "pending": "#c0392b", "fair": "#3c9a5f", "ink": "#1d1d1f",
            "dispatch": "#6c4fa3", "transfer": "#117a8b"}


def e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def is_audit_run(run: Run) -> bool:
    """A ``doctor --run`` run: results that hold a timed interval."""
    return any(r.audit is not None for r in run.results)


def audit_section(run: Run, index: int) -> str:
    """The HTML section of one ``doctor --run`` run: the script's outline, then each interval's timeline,
    table row and findings with their evidence."""
    read = [(r, stored_interval(r.audit)) for r in run.results if r.audit is not None]
    outline = next((found[1] for _, found in read if found is not None), {})
    script = outline.get("script") or run.label
    how = f"{e(outline.get('status', run.status))}, exit {e(outline.get('exit_code', '?'))}"
    if outline.get("wall_s") is not None:
        how += f", {e(fmt_time(float(outline['wall_s'])))}"
    parts = [f'<section class="script-audit" id="audit-{index}"><h2>doctor --run {e(script)}</h2>',
             f'<p class="meta">run {run.id}: the script {how}; {len(read)} timed interval(s). Each timeline starts '
             "at the interval's opening clock read.</p>"]
    if outline.get("error"):
        parts.append(f'<p class="error">{e(outline["error"])}</p>')
    for i, (result, found) in enumerate(read):
        if found is None:
            continue
        interval, _ = found
        parts.append(_interval(result.workload, interval, f"audit-{index}-{i + 1}"))
    ratios = outline.get("ratios") or []
    if ratios:
        rows = "".join(
            f"<tr><td>{e(r['first'])} ({e(r['first_lines'])}) / {e(r['second'])} ({e(r['second_lines'])})</td>"
            f'<td class="num">{float(r["implied"]):.3g}x</td><td class="num">{float(r["fair"]):.3g}x</td>'
            f"<td>{_isolated(r)}</td></tr>"
            for r in ratios)
        parts.append("<h3>Frameworks compared</h3><table><thead><tr><th>ratio</th><th>as the script timed it</th>"
                     "<th>re-timed in its process</th><th>isolated workers (95% CI)</th></tr></thead>"
                     f"<tbody>{rows}</tbody></table>")
    parts.append("</section>")
    return "\n".join(parts)


def _isolated(ratio: dict[str, Any]) -> str:
    """The isolated workers' ratio with its CI, or why there is none (a stored ratio from before: nothing)."""
    isolated = ratio.get("isolated")
    if isolated:
        return (f'<span class="num">{float(isolated["ratio"]):.3g}x</span> '
                f'[{float(isolated["low"]):.3g}x, {float(isolated["high"]):.3g}x]')
    return e(ratio.get("isolated_note") or "")


def _interval(name: str, interval: TimedInterval, anchor: str) -> str:
    fair = interval.fair
    held = _held(interval)
    fair_text = (f"{fmt_time(fair.median)} [{fmt_time(fair.low)}, {fmt_time(fair.high)}], {fair.samples} samples"
                 if fair is not None else f"not re-timed: {interval.fair_note or 'no reason recorded'}")
    parts = [f'<div class="interval" id="{anchor}"><h3>{e(name)}: {e(interval.clock)}, '
             f"{len(interval.samples)} sample(s)</h3>",
             _figure(interval, anchor),
             f'<p class="note">measured by the script: {e(fmt_time(interval.measured))} (median of '
             f"{len(interval.samples)}); held: {e(held)}; fair figure: {e(fair_text)}</p>"]
    if interval.source:
        parts.append(f"<pre>{e(interval.source)}</pre>")
    items = []
    for f in interval.findings:
        items.append(finding_item(f))
    if items:
        parts.append(f'<ul class="findings">{"".join(items)}</ul>')
    parts.append("</div>")
    return "\n".join(parts)


def _held(interval: TimedInterval) -> str:
    compiled = sum(s.compile for s in interval.samples)
    pending = [s.pending for s in interval.samples if s.pending > 0]
    cold = sum(s.cold for s in interval.samples)
    said = [f"compilation {fmt_time(compiled)} in {cold} sample(s)" if compiled else "no compilation"]
    said.append(f"work still running at the closing read in {len(pending)} sample(s), up to {fmt_time(max(pending))}"
                if pending else "no work still running at the closing read")
    moved = _moved(Sample(0.0, **{kind: sum(getattr(s, kind) for s in interval.samples) for kind in _MOVED}))
    said.append(f"in all samples: {', '.join(moved)}" if moved else "no JAX dispatch or transfer")
    return "; ".join(said)


_MOVED = ("eager_dispatches", "jit_calls", "to_device", "to_device_bytes", "to_host", "to_host_bytes")


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _dispatches(s: Sample) -> list[str]:
    said = []
    if s.eager_dispatches:
        said.append(_count(s.eager_dispatches, "eager dispatch", "eager dispatches"))
    if s.jit_calls:
        said.append(_count(s.jit_calls, "jitted call", "jitted calls"))
    return said


def _transfers(s: Sample) -> list[str]:
    said = []
    if s.to_device:
        said.append(f"{_count(s.to_device, 'host-to-device transfer', 'host-to-device transfers')} "
                    f"({fmt_bytes(s.to_device_bytes)})")
    if s.to_host:
        said.append(f"{_count(s.to_host, 'device-to-host transfer', 'device-to-host transfers')} "
                    f"({fmt_bytes(s.to_host_bytes)})")
    return said


def _moved(s: Sample) -> list[str]:
    """A sample's JAX dispatches and transfers in words (``["1,000 eager dispatches", ...]``); [] if none."""
    return _dispatches(s) + _transfers(s)


def _rows(interval: TimedInterval) -> list[tuple[str, Sample]]:
    """The samples drawn: the first, the median one (the lower middle of an even count) and the one that left
    the most work running after the clock stopped, each once."""
    samples = list(interval.samples)
    if len(samples) == 1:
        return [("the only sample", samples[0])]
    median = sorted(samples, key=lambda s: s.measured)[(len(samples) - 1) // 2]
    most_pending = max(samples, key=lambda s: s.pending)
    rows = [("first sample" + (" (cold)" if samples[0].cold else ""), samples[0])]
    if median is not samples[0]:
        rows.append((f"median of {len(samples)}", median))
    if most_pending.pending > 0 and all(most_pending is not s for _, s in rows):
        rows.append(("most left running", most_pending))
    return rows


def _figure(interval: TimedInterval, anchor: str) -> str:
    rows = _rows(interval)
    fair = interval.fair
    span = max([s.measured + s.pending for _, s in rows] + ([fair.high] if fair is not None else []) + [1e-9])
    plot_w = _WIDTH - _LEFT - _RIGHT

    def x(t: float) -> float:
        """Seconds since the opening read, in pixels."""
        return _LEFT + plot_w * max(t, 0.0) / span

    count = len(rows) + (fair is not None)
    height = 40 + _ROW * count + _MARKS * sum(bool(_moved(s)) for _, s in rows) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {height}" width="{_WIDTH}" height="{height}" '
           f'role="img" aria-label="timeline of {e(interval.lines)}" font-family="system-ui, sans-serif" font-size="12">',
           '<defs><pattern id="{0}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="6" height="6" fill="#f4d3cf"/>'
           '<line x1="0" y1="0" x2="0" y2="6" stroke="{1}" stroke-width="3"/></pattern>'
           '<pattern id="{0}-ticks" width="4" height="10" patternUnits="userSpaceOnUse">'
           '<line x1="1" y1="0" x2="1" y2="10" stroke="{2}" stroke-width="1.5"/></pattern></defs>'
           .format(e(anchor), _COLOURS["pending"], _COLOURS["dispatch"]), "<g>"]
    y = 24
    out.append(f'<text x="{_LEFT}" y="14" fill="#555">opening clock read, line {interval.opening_line}</text>')
    for label, sample in rows:
        out.append(_sample_row(label, sample, y, x, anchor, interval.closing_line))
        y += _ROW + (_MARKS if _moved(sample) else 0)
    if fair is not None:
        w = max(x(fair.median) - _LEFT, 1.5)
        mid = y + 10
        out.append(f'<text x="{_LEFT - 8}" y="{mid + 4}" text-anchor="end">fair figure</text>'
                   f'<rect class="fair" x="{_LEFT}" y="{y + 3}" width="{w:.1f}" height="14" fill="{_COLOURS["fair"]}"/>'
                   f'<line x1="{x(fair.low):.1f}" x2="{x(fair.high):.1f}" y1="{mid}" y2="{mid}" stroke="{_COLOURS["ink"]}"/>'
                   f'<text x="{_LEFT}" y="{y + 31}">fair {e(fmt_time(fair.median))} '
                   f"(warmed, blocked; 95% CI {e(fmt_time(fair.low))} to {e(fmt_time(fair.high))})</text>")
        y += _ROW
    axis_y = y + 4
    out.append(f'<line x1="{_LEFT}" x2="{_LEFT + plot_w}" y1="{axis_y}" y2="{axis_y}" stroke="#999"/>')
    for t in (0.0, span / 2, span):
        out.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{axis_y}" y2="{axis_y + 4}" stroke="#999"/>'
                   f'<text x="{x(t):.1f}" y="{axis_y + 16}" text-anchor="middle" fill="#555">{e(fmt_time(t))}</text>')
    out.append(f'<line x1="{_LEFT}" x2="{_LEFT}" y1="18" y2="{axis_y}" stroke="{_COLOURS["ink"]}" stroke-width="2"/>')
    out.append("</g></svg>")
    return (f'<figure class="plot plot-timeline" id="{e(anchor)}-timeline">{"".join(out)}<figcaption>'
            f"{e(interval.lines)}: from the opening clock read (left edge) to the closing one, then the work the "
            "clock missed; compilation is drawn as its share of the interval, not where in it it ran. Under a "
            "sample, ticks mark its JAX dispatches and triangles its transfers (down: host to device, up: device "
            "to host), with their counts: counted, not timed, so their places are not times."
            "</figcaption></figure>")


def _sample_row(label: str, s: Sample, y: int, x: Callable[[float], float], anchor: str,
                closing_line: int) -> str:
    stop = x(s.measured)
    mid = y + 10
    parts = [f'<text x="{_LEFT - 8}" y="{mid + 4}" text-anchor="end">{e(label)}</text>',
             f'<rect class="measured" x="{_LEFT}" y="{y + 3}" width="{max(stop - _LEFT, 1.5):.1f}" height="14" '
             f'fill="{_COLOURS["measured"]}"/>']
    said = [f"measured {fmt_time(s.measured)} (to the clock read on line {closing_line})"]
    if s.compile > 0:
        end = x(min(s.compile, s.measured))
        parts.append(f'<rect class="compile" x="{_LEFT}" y="{y + 3}" width="{max(end - _LEFT, 1.5):.1f}" height="14" '
                     f'fill="{_COLOURS["compile"]}"/>')
        said.append(f"compile {fmt_time(s.compile)}")
    tail_end = stop
    if s.pending > 0:
        tail_end = x(s.measured + s.pending)
        parts.append(f'<rect class="pending" x="{stop:.1f}" y="{y + 3}" width="{max(tail_end - stop, 1.5):.1f}" '
                     f'height="14" fill="url(#{e(anchor)}-hatch)"/>')
        said.append(f"still running {fmt_time(s.pending)} after the clock stopped")
    parts.append(f'<line class="clock-read" x1="{stop:.1f}" x2="{stop:.1f}" y1="{y}" y2="{y + 20}" '
                 f'stroke="{_COLOURS["ink"]}" stroke-width="2"><title>closing clock read, line {closing_line}</title></line>')
    parts.append(f'<text x="{_LEFT}" y="{y + 31}">{e("; ".join(said))}</text>')
    parts.append(_marks(s, y + _ROW - 6, stop, anchor))
    return "".join(parts)


def _marks(s: Sample, top: int, stop: float, anchor: str) -> str:
    """The strip under a sample's bar: its dispatches as tick marks across the bar, its transfers as
    triangles (down at the opening read: host to device; up at the closing read: device to host), and the
    counts in words below. Placed by kind, not by time: the counts are all the observer keeps."""
    moved = _moved(s)
    if not moved:
        return ""
    parts = []
    # Across the bar, and at least a dozen ticks wide: a microsecond sample's dispatches are still seen.
    end = max(stop, _LEFT + 48.0)
    dispatched = _dispatches(s)
    if dispatched:
        parts.append(f'<rect class="dispatch" x="{_LEFT}" y="{top}" width="{end - _LEFT:.1f}" height="10" '
                     f'fill="url(#{e(anchor)}-ticks)"><title>{e(", ".join(dispatched))}</title></rect>')
    if s.to_device:  # left of the opening read, pointing into the interval
        parts.append(f'<path class="transfer to-device" d="M{_LEFT - 16} {top} h12 l-6 10 z" '
                     f'fill="{_COLOURS["transfer"]}"><title>{e(_transfers(s)[0])}</title></path>')
    if s.to_host:  # past the closing read (or the ticks), pointing out of it
        parts.append(f'<path class="transfer to-host" d="M{end + 4:.1f} {top + 10} h12 l-6 -10 z" '
                     f'fill="{_COLOURS["transfer"]}"><title>{e(_transfers(s)[-1])}</title></path>')
    parts.append(f'<text class="moved" x="{_LEFT}" y="{top + 24}" fill="#444">{e(", ".join(moved))}</text>')
    return "".join(parts)

