"""The report's figures: matplotlib drawn straight to SVG text, embedded inline in the HTML.

Figures are built as ``matplotlib.figure.Figure`` objects and saved with the SVG backend, so no
GUI backend is touched and a user's pyplot state (e.g. in a notebook) stays as it was. Text is
drawn as glyph paths: the SVG holds no font references and no text from user data.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .._results.measurement import Measurement
from .._values.units import fmt_time
from ..store import params_key
from ._model import WorkloadSection

FRAMEWORK_COLORS = {"jax": "#4c72b0", "torch": "#dd8452", "numpy": "#55a868", "python": "#8c8c8c"}
_OTHER_COLORS = ("#8172b3", "#937860", "#da8bc3", "#ccb974", "#64b5cd")
_HATCHES = ("", "//", "..", "xx", "\\\\", "--")
_PHASE_COLORS = {"compile": "#c44e52", "first call": "#ccb974", "steady median": "#4c72b0"}
MAX_POINTS = 12  # sweep points shown in bar and box charts: beyond this they stop being readable
LOG_SPREAD = 30  # values spanning more than this factor get a log axis


@dataclasses.dataclass(frozen=True)
class Plot:
    """One figure: what it shows (``kind``), its caption, and the SVG document."""

    kind: str
    caption: str
    svg: str


def plots(section: WorkloadSection) -> list[Plot]:
    """Every figure for one workload (none if it has no successful result)."""
    if section.headline is None:
        return []
    with _style():
        out = [medians(section), distributions(section), cold_start(section)]
        if section.is_sweep and len(section.ok_points) > 1:
            out.append(sweep(section))
        if _history_worth_plotting(section):
            out.append(history(section))
    return out


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.figure import Figure  # lazy: only reports draw, and matplotlib is an extra
    except ImportError:
        raise ImportError("levelbench needs matplotlib for this: pip install 'levelbench[plot]'") from None
    return Figure(figsize=(width, height), layout="constrained")


@contextlib.contextmanager
def _style() -> Iterator[None]:
    try:
        import matplotlib  # lazy, as above
    except ImportError:
        raise ImportError("levelbench needs matplotlib for this: pip install 'levelbench[plot]'") from None
    with matplotlib.rc_context({
        "svg.fonttype": "path", "svg.hashsalt": "levelbench", "font.size": 8.5, "axes.titlesize": 9,
        "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3,
        "axes.axisbelow": True, "legend.frameon": False, "legend.fontsize": 8,
    }):
        yield


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def _text(user_text: str) -> str:
    """User text for matplotlib: ``$`` would start mathtext, a leading ``_`` hides a legend entry."""
    text = str(user_text).replace("$", r"\$")
    return " " + text if text.startswith("_") else text


def colors(section: WorkloadSection) -> dict[str, tuple[str, str]]:
    """Candidate -> (colour, hatch): one hue per framework, shades and hatches within it."""
    out: dict[str, tuple[str, str]] = {}
    seen: dict[str, int] = {}
    others = iter(_OTHER_COLORS * 10)
    other_of: dict[str, str] = {}
    for name in section.candidates:
        fw = section.framework(name)
        base = FRAMEWORK_COLORS.get(fw) or other_of.setdefault(fw, next(others))
        k = seen.get(fw, 0)
        seen[fw] = k + 1
        out[name] = (_lighten(base, min(0.25 * k, 0.6)), _HATCHES[k % len(_HATCHES)])
    return out


def _lighten(color: str, amount: float) -> str:
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def _time_axis(axis: Any, values: Sequence[float]) -> None:
    """Seconds on an axis, labelled 1 ms / 10 us; log scale when the values span a wide range."""
    from matplotlib.ticker import FuncFormatter, NullFormatter  # lazy, as above

    positive = [v for v in values if v and v > 0 and math.isfinite(v)]
    spread = max(positive) / min(positive) if positive else 1.0
    if spread > LOG_SPREAD:
        axis.axes.set_xscale("log") if axis.axis_name == "x" else axis.axes.set_yscale("log")
    label = FuncFormatter(lambda v, _: "0" if v == 0 else fmt_time(v))
    axis.set_major_formatter(label)
    if axis.get_scale() == "log":
        # Within a decade only minor ticks fall inside the range: label them; across decades they would crowd.
        axis.set_minor_formatter(label if spread < 10 else NullFormatter())


def _ci_error(ms: Sequence[Measurement]) -> np.ndarray:
    return np.array([[m.median - m.ci.lower for m in ms], [m.ci.upper - m.median for m in ms]])


# -- the figures --------------------------------------------------------------------------------
def medians(section: WorkloadSection) -> Plot:
    """Median per call with its 95% CI: bars grouped by framework (or by sweep point)."""
    palette = colors(section)
    points = section.ok_points[:MAX_POINTS]
    if len(points) == 1:
        c = points[0].comparison
        assert c is not None
        names = [n for n in section.candidates if n in c.measurements]
        x, gap, last = [], 0.0, None
        for i, n in enumerate(names):
            fw = section.framework(n)
            gap += 0.6 if last is not None and fw != last else 0.0
            x.append(i + gap)
            last = fw
        ms = [c.measurements[n] for n in names]
        fig = _figure(max(4.5, 0.9 * len(names) + 3.0), 3.2)
        ax = fig.subplots()
        bars = ax.bar(x, [m.median for m in ms], yerr=_ci_error(ms), capsize=3,
                      color=[palette[n][0] for n in names], edgecolor="#333333", linewidth=0.5)
        for bar, n in zip(bars, names):
            bar.set_hatch(palette[n][1])
        long_names = max(map(len, names)) > 10
        ax.set_xticks(x, [_text(n) for n in names], rotation=20 if long_names else 0,
                      ha="right" if long_names else "center")
        _framework_legend(ax, section, names, palette)
        caption = "Median time per call with 95% CI, grouped by framework"
    else:
        names = section.candidates
        width = 0.8 / max(len(names), 1)
        all_values = []
        fig = _figure(max(6.0, 0.5 * len(points) * len(names) + 4.0), 3.4)
        ax = fig.subplots()
        for j, n in enumerate(names):
            have = [(i, p.comparison.measurements[n]) for i, p in enumerate(points)
                    if p.comparison and n in p.comparison.measurements]
            if not have:
                continue
            xs = [i + (j - (len(names) - 1) / 2) * width for i, _ in have]
            ms = [m for _, m in have]
            all_values += [m.median for m in ms]
            ax.bar(xs, [m.median for m in ms], width, yerr=_ci_error(ms), capsize=2, color=palette[n][0],
                   hatch=palette[n][1], edgecolor="#333333", linewidth=0.5,
                   label=_text(f"{n} ({section.framework(n)})"))
        ax.set_xticks(range(len(points)), [_text(section.point_label(p)) for p in points],
                      rotation=20 if len(points) > 4 else 0)
        _legend(ax)
        caption = "Median time per call with 95% CI at each point of the sweep, grouped by framework"
    ax.set_ylabel("time per call")
    _time_axis(ax.yaxis, [p.get_height() for p in ax.patches])
    return Plot("medians", caption, _svg(fig))


def _framework_legend(ax: Any, section: WorkloadSection, names: Sequence[str],
                      palette: dict[str, tuple[str, str]]) -> None:
    from matplotlib.patches import Patch  # lazy, as above

    first_of = {section.framework(n): n for n in reversed(names)}  # each framework's first candidate
    handles = [Patch(facecolor=palette[first_of[fw]][0], edgecolor="#333333", linewidth=0.5, label=_text(fw or "?"))
               for fw in dict.fromkeys(section.framework(n) for n in names)]
    _legend(ax, handles=handles)


def _legend(ax: Any, **kw: Any) -> None:
    """Beside the axes, where it cannot cover data (constrained layout makes room for it)."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=7, **kw)


def distributions(section: WorkloadSection) -> Plot:
    """Every steady-state sample per candidate as box plots, grouped by sweep point."""
    palette = colors(section)
    points = section.ok_points[:MAX_POINTS]
    names = section.candidates
    width = 0.8 / len(names)
    fig = _figure(max(5.5, 0.35 * len(points) * len(names) + 3.5), 3.4)
    ax = fig.subplots()
    values = []
    for j, n in enumerate(names):
        have = [(i, p.comparison.measurements[n]) for i, p in enumerate(points)
                if p.comparison and n in p.comparison.measurements]
        if not have:
            continue
        data = [np.asarray(m.samples) for _, m in have]
        values += [float(v) for d in data for v in (d.min(), d.max())]
        box = ax.boxplot(data, positions=[i + (j - (len(names) - 1) / 2) * width for i, _ in have],
                         widths=width * 0.85, patch_artist=True, manage_ticks=False,
                         flierprops={"markersize": 2, "alpha": 0.5}, medianprops={"color": "#222222"})
        for patch in box["boxes"]:
            patch.set_facecolor(palette[n][0])
            patch.set_hatch(palette[n][1])
        box["boxes"][0].set_label(_text(f"{n} ({section.framework(n)})"))
    if section.is_sweep:
        ax.set_xticks(range(len(points)), [_text(section.point_label(p)) for p in points],
                      rotation=20 if len(points) > 4 else 0)
        _legend(ax)
    else:
        ax.set_xticks([(j - (len(names) - 1) / 2) * width for j in range(len(names))], [_text(n) for n in names],
                      rotation=20 if max(map(len, names)) > 10 else 0)
    ax.set_ylabel("time per call")
    _time_axis(ax.yaxis, values)
    caption = "Distribution of the steady-state samples (box: quartiles, whiskers: 1.5 IQR, dots: outliers)"
    return Plot("distributions", caption, _svg(fig))


def cold_start(section: WorkloadSection) -> Plot:
    """Compile time and first call against the steady-state median, per candidate (log scale)."""
    point = section.headline
    assert point is not None and point.comparison is not None
    c = point.comparison
    names = [n for n in section.candidates if n in c.measurements]
    fig = _figure(7.4, max(2.2, 0.55 * len(names) + 1.0))
    ax = fig.subplots()
    height = 0.26
    values = []
    for k, (phase, color) in enumerate(_PHASE_COLORS.items()):
        ys, xs = [], []
        for i, n in enumerate(names):
            v = _phase(c.measurements[n], phase)
            if v:
                ys.append(i + (k - 1) * height)
                xs.append(v)
        values += xs
        ax.barh(ys, xs, height, color=color, label=phase, edgecolor="#333333", linewidth=0.4)
    ax.set_yticks(range(len(names)), [_text(n) for n in names])
    ax.invert_yaxis()
    ax.set_xscale("log")
    _time_axis(ax.xaxis, values)
    ax.set_xlabel("seconds (log scale)")
    _legend(ax)
    where = f" ({section.point_label(point)})" if section.is_sweep else ""
    return Plot("cold-start", f"Compile time and first call against the steady-state median per call{where}",
                _svg(fig))


def _phase(m: Measurement, phase: str) -> float:
    if phase == "compile":
        return m.compile.total if m.compile else m.compile_in_first_call
    return m.first_call if phase == "first call" else m.median


def sweep(section: WorkloadSection) -> Plot:
    """Steady time and compile time against the swept parameter, one line per candidate."""
    from matplotlib.ticker import NullLocator  # lazy, as above

    palette = colors(section)
    points = section.ok_points
    axis = section.axis
    fig = _figure(11.5, 3.6)
    left, right = fig.subplots(1, 2)
    compiles = any(_phase(m, "compile") for p in points if p.comparison for m in p.comparison.measurements.values())
    cold = "compile" if compiles else "first call"
    positions = {params_key(p.params): i for i, p in enumerate(points)}
    steady_values, cold_values = [], []
    for n in section.candidates:
        for series in dict.fromkeys(section.series_label(p) for p in points):
            have = [(p, p.comparison.measurements[n]) for p in points if p.comparison and
                    n in p.comparison.measurements and section.series_label(p) == series]
            if not have:
                continue
            xs = [p.params[axis] if axis else positions[params_key(p.params)] for p, _ in have]
            ms = [m for _, m in have]
            label = _text(f"{n} ({series})" if series else n)
            color, _ = palette[n]
            left.plot(xs, [m.median for m in ms], marker="o", markersize=3, color=color, label=label)
            left.fill_between(xs, [m.ci.lower for m in ms], [m.ci.upper for m in ms], color=color, alpha=0.2,
                              linewidth=0)
            steady_values += [m.median for m in ms]
            cs = [_phase(m, cold) for m in ms]
            if any(cs):
                right.plot(xs, cs, marker="o", markersize=3, color=color, label=label)
                cold_values += cs
    for ax, values, title in ((left, steady_values, "steady state: median per call (95% CI band)"),
                              (right, cold_values, f"cold start: {cold}")):
        ax.set_title(title)
        ax.set_xlabel(_text(axis) if axis else "point")
        if axis:
            xs_all = sorted({p.params[axis] for p in points})
            if min(xs_all) > 0 and max(xs_all) / min(xs_all) >= 4:
                ax.set_xscale("log")
            ax.set_xticks(xs_all, [_text(str(v)) for v in xs_all])
            ax.xaxis.set_minor_locator(NullLocator())  # the swept values only
        else:
            ax.set_xticks(range(len(points)), [_text(section.point_label(p)) for p in points], rotation=20)
        _time_axis(ax.yaxis, values)
    handles, labels = left.get_legend_handles_labels()
    _legend(right, handles=handles, labels=labels)  # one legend for both panels
    caption = (f"Steady-state time and {cold} against {axis}" if axis else
               f"Steady-state time and {cold} at each point")
    return Plot("sweep", caption + "; log scales where the values span a wide range", _svg(fig))


def _history_worth_plotting(section: WorkloadSection) -> bool:
    point = section.headline
    assert point is not None
    return sum(any(r.key == point.key and r.comparison for r in results) for _, results in section.history) > 1


def history(section: WorkloadSection) -> Plot:
    """Median per call in each given run, at the headline point of a sweep."""
    palette = colors(section)
    point = section.headline
    assert point is not None
    runs = [run for run, _ in section.history]
    fig = _figure(max(6.0, 0.6 * len(runs) + 4.5), 3.2)
    ax = fig.subplots()
    values = []
    for n in section.candidates:
        xs, ms = [], []
        for i, (_, results) in enumerate(section.history):
            match = next((r for r in results if r.key == point.key and r.comparison and
                          n in r.comparison.measurements), None)
            if match is not None:
                xs.append(i)
                ms.append(match.comparison.measurements[n])  # type: ignore[union-attr]
        if ms:
            values += [m.median for m in ms]
            ax.errorbar(xs, [m.median for m in ms], yerr=_ci_error(ms), marker="o", markersize=3, capsize=2,
                        color=palette[n][0], label=_text(n))
    ax.set_xticks(range(len(runs)), [f"#{r.id}" for r in runs])
    ax.set_xlabel("run")
    ax.set_ylabel("time per call")
    _time_axis(ax.yaxis, values)
    _legend(ax)
    where = f" at {section.point_label(point)}" if section.is_sweep else ""
    return Plot("history", f"Median time per call (95% CI) in each run given{where}", _svg(fig))
