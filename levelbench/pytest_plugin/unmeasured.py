"""``--levelbench-disable``: a timing test runs as a plain test, each function called once, untimed.

As with pytest-benchmark's ``--benchmark-disable``, the point is to check that benchmark code still
runs (in a quick CI job, under a debugger, with coverage) without paying for the timing. The
fixture's ``measure``/``compare`` call each function once with its arguments, wait for its output
(JAX arrays, CUDA tensors), and return a stand-in whose assertions on times and ratios all pass:

- every time and ratio is `Unmeasured`: a NaN float for which ``<``, ``<=``, ``>``, ``>=``, ``==``
  and ``!=`` are all true, and arithmetic on it gives `Unmeasured` again;
- ``measure`` returns `NotMeasured`, ``compare`` returns `NotCompared` (``ratio()`` gives an
  `UnmeasuredRatio`); ``.measured`` is False on each, ``.output`` holds what the call returned;
- everything that is not a number is plainly empty: no samples, no findings, ``verdict()`` is
  ``"not measured"``. An assertion on those (``assert c.verdict("jax") == "faster"``) still fails.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from typing import Any
from .._measuring.candidate import Builder, coerce
from .._measuring.measure import measure
from .._measuring.sampler import start

NOT_MEASURED = "not measured"


class Unmeasured(float):
    """A time or ratio that was not measured: NaN, yet every comparison with it is true."""

    def __new__(cls) -> "Unmeasured":
        return super().__new__(cls, math.nan)

    def _true(self, other: Any) -> bool:
        return True

    def _same(self, *other: Any) -> "Unmeasured":
        return Unmeasured()

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _true  # type: ignore[assignment]
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _same  # type: ignore[assignment]
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __pow__ = __rpow__ = _same  # type: ignore[assignment]
    __neg__ = __pos__ = __abs__ = _same  # type: ignore[assignment]
    __hash__ = float.__hash__

    def __repr__(self) -> str:
        return "unmeasured"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return "unmeasured"


class UnmeasuredInterval:
    """An `Interval` (estimate, lower, upper) that was not measured: every bound is `Unmeasured`."""

    confidence = 0.95

    def __init__(self) -> None:
        self.estimate, self.lower, self.upper = Unmeasured(), Unmeasured(), Unmeasured()
        self.half_width = self.relative_half_width = Unmeasured()

    def contains(self, value: float) -> bool:
        return True

    def __repr__(self) -> str:
        return "UnmeasuredInterval()"


class UnmeasuredRatio(UnmeasuredInterval):
    """What ``compare(...).ratio(name, baseline)`` gives under ``--levelbench-disable``: ``r < x``,
    ``r > x``, ``r.upper < x``, ``r.lower > x`` and ``r.contains(x)`` are all true."""

    def __init__(self, name: str, baseline: str) -> None:
        super().__init__()
        self.name, self.baseline = name, baseline
        self.interval = UnmeasuredInterval()

    __lt__ = __le__ = __gt__ = __ge__ = Unmeasured._true

    def __repr__(self) -> str:
        return f"UnmeasuredRatio({self.name}/{self.baseline}, --levelbench-disable)"


class NotMeasured:
    """What the fixture's ``measure`` returns under ``--levelbench-disable``: the call ran once, untimed."""

    measured = False
    framework = NOT_MEASURED
    samples: tuple[float, ...] = ()
    findings: tuple[Any, ...] = ()
    warnings: tuple[Any, ...] = ()
    n_samples = calls_per_sample = loops = repeat = discarded_samples = recompilations = 0
    target_reached = False
    flops = gflops = output_dtype = compile = None

    def __init__(self, label: str, output: Any) -> None:
        self.label, self.output = label, output
        self.ci = UnmeasuredInterval()
        for name in ("median", "steady_median", "mean", "min", "std", "iqr", "first_call", "cold_start",
                     "compile_time", "compile_in_first_call", "best", "worst", "average", "stdev", "total_time"):
            setattr(self, name, Unmeasured())
        self.timings: list[float] = []
        self.all_runs: list[float] = []

    def has(self, code: str) -> bool:
        return False

    def __repr__(self) -> str:
        return f"<levelbench measure of {self.label}: not measured (--levelbench-disable)>"

    __str__ = __repr__


class NotCompared:
    """What the fixture's ``compare`` returns under ``--levelbench-disable``: each candidate ran once, untimed."""

    measured = False
    findings: tuple[Any, ...] = ()
    agreements: tuple[Any, ...] = ()
    target_reached = False
    isolation = None

    def __init__(self, measurements: dict[str, NotMeasured], baseline: str | None, title: str = "",
                 params: Mapping[str, Any] | None = None) -> None:
        self.measurements = measurements
        self.baseline = baseline or next(iter(measurements), "")
        self.title, self.params = title, dict(params or {})
        self.outputs = {name: m.output for name, m in measurements.items()}
        self.skipped: dict[str, str] = {}
        self.failed: dict[str, str] = {}

    @property
    def names(self) -> list[str]:
        return list(self.measurements)

    def _known(self, name: str, baseline: str | None) -> str:
        base = baseline or self.baseline
        for n in (name, base):
            if n not in self.measurements:
                raise KeyError(f"no candidate named {n!r}; the candidates are {self.names}")
        return base

    def ratio(self, name: str, baseline: str | None = None) -> UnmeasuredRatio:
        return UnmeasuredRatio(name, self._known(name, baseline))

    def back_to_back_ratio(self, name: str, baseline: str | None = None) -> None:
        self._known(name, baseline)
        return None

    @property
    def ratios(self) -> dict[str, UnmeasuredRatio]:
        return {n: self.ratio(n) for n in self.names}

    def verdict(self, name: str, baseline: str | None = None) -> str:
        self._known(name, baseline)
        return NOT_MEASURED

    def findings_for(self, name: str) -> list[Any]:
        self._known(name, None)
        return []

    def gflops(self, name: str) -> None:
        return None

    def peak_share(self, name: str) -> None:
        return None

    def __repr__(self) -> str:
        return f"<levelbench comparison of {', '.join(self.names)}: not measured (--levelbench-disable)>"

    __str__ = __repr__


def _measure_options() -> set[str]:
    """The keyword arguments `levelbench.measure` keeps for itself; the others go to the function."""

    return {p.name for p in inspect.signature(measure).parameters.values() if p.kind is p.KEYWORD_ONLY} | {"save"}


def _call(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """Call once and wait for the whole output, as the first call of a measurement does (errors surface here)."""

    return start(fn, args, kwargs).result


def measure_once(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> NotMeasured:
    """``measure(fn, *args, **kwargs)`` without timing: ``fn`` called once with its own arguments."""
    options = _measure_options()
    own = {k: v for k, v in kwargs.items() if k not in options}
    label = kwargs.get("label") or getattr(fn, "__name__", None) or type(fn).__name__
    return NotMeasured(str(label), _call(fn, args, own))


def compare_once(candidates: Mapping[str, Any], kwargs: dict[str, Any]) -> NotCompared:
    """``compare(candidates, **kwargs)`` without timing: each candidate (or what its builder makes) called once."""

    if not isinstance(candidates, Mapping) or not candidates:
        raise TypeError(f"compare expects a non-empty mapping of name -> candidate, got {candidates!r}")
    measured = {}
    for name, spec in candidates.items():
        c = coerce(name, spec)
        if isinstance(c, Builder):
            c = c.build(name)
        measured[name] = NotMeasured(name, _call(c.fn, c.args, c.kwargs))
    return NotCompared(measured, kwargs.get("baseline"), kwargs.get("title", ""), kwargs.get("params"))
