"""`explain(fn, *args)`: run the probes on one function and rank what they find."""

from __future__ import annotations

import inspect
import math
import numbers
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .._results.measurement import Measurement
from .._frameworks import framework_of
from .._measuring.checks import lazy_kind
from . import fixes as _fixes
from . import scale as _scale
from .arguments import Call, jit_fix, transform_of
from .._results.diagnosis import Diagnosis, rank
from .probes import Probe, all_probes
from .probes.transfers import HOST_READ_ERRORS
from .subject import Subject, fresh_jit, trace_once

QUICK_PROBES = ("config", "dead", "precision", "transfers", "compile", "retrace", "torch")


def explain(
    fn: Callable[..., Any],
    *args: Any,
    scale_axis: _scale.ScaleRequest = None,
    calls: Iterable[Call | tuple] | None = None,
    probes: Sequence[str] | None = None,
    quick: bool = False,
    budget: float = 10.0,
    label: str | None = None,
    measurement: Measurement | None = None,
    fixes: bool = True,
    **kwargs: Any,
) -> Diagnosis:
    """Diagnose why ``fn(*args, **kwargs)`` is slow by running it: ranked findings with evidence and fixes.

    Works on jitted and unjitted JAX functions, Flax ``apply``, functions of pytrees, and PyTorch
    modules. Each probe is a small unit; see ``levelbench._probing.PROBES`` for the list and the
    finding codes (LB2xx) each can give.

    Args:
        scale_axis: the axis the function loops over, to measure how the traced program grows with
            its length (unrolled Python loops): a positional argument's index (its leading axis), an
            argument name, ``(argument, axis)``, or False to skip. None guesses: the leading axis
            of a positional array argument, >= 16 long, whose size no other input shares.
        calls: the call sequence to check for recompilation, each a tuple of positional arguments
            or a ``Call(*args, **kwargs)``; by default the example call is repeated. When no
            example arguments are given, the first call is the example.
        probes: names of the probes to run (default: all that apply).
        quick: skip the expensive probes (growth with length, dispatch, roofline) and extra timings,
            for use beside a measurement (``levelbench run``).
        budget: roughly the seconds explain should take: each timing samples for a twentieth of
            it (at most 0.5 s), and an input whose projected compile time exceeds a quarter of it
            (at least 1 s) is shortened for the probes after the unrolled-loop one.
        label: name used in the report (default: the function's name).
        measurement: a `Measurement` of ``fn(*args)`` already taken, reused instead of timing again.
        fixes: build the fixed variant of each finding whose fix is mechanical (jit the outermost
            function, x64 on, a donated buffer), check it computes the same outputs and time it
            beside the call as given; measure the compilation cache of a compile-heavy program in
            two fresh processes, and XLA's CPU dot alternatives on the whole program; all within
            ``budget`` (see `levelbench._probing.fixes`). False: fixes stay code, and
            findings whose fix is a rewrite still say their cost is projected.

    Keyword arguments not listed here go to ``fn`` (wrap ``fn`` in ``functools.partial`` if a name
    collides).

    A probe that fails is recorded in ``Diagnosis.skipped`` and the others still run; then the call
    as given is made once more, and if it raises (or returns a lazy generator or a coroutine, so
    nothing ran) explain raises `CallFailed`, which says where and the fix, instead of reporting
    "nothing found" about a function that never ran.

    Example:
        >>> import jax, jax.numpy as jnp, levelbench
        >>> f = jax.jit(lambda x: jnp.sin(x) @ x)
        >>> d = levelbench.explain(f, jnp.ones((64, 64)), quick=True)
        >>> [f.code for f in d.findings if f.severity >= levelbench.Severity.WARNING]
        []
    """
    return diagnose(fn, args, kwargs, scale_axis=scale_axis, calls=calls, probes=probes, quick=quick,
                    budget=budget, label=label, measurement=measurement, fixes=fixes)


class CallFailed(RuntimeError):
    """The call explain diagnoses does not run: it raised (the exception is the ``__cause__``), or it
    returned a lazy generator or a coroutine. The message says what, where and the fix, on one line."""


def diagnose(
    fn: Callable[..., Any],
    args: tuple,
    kwargs: dict,
    *,
    scale_axis: _scale.ScaleRequest = None,
    calls: Iterable[Call | tuple] | None = None,
    probes: Sequence[str] | None = None,
    quick: bool = False,
    budget: float = 10.0,
    label: str | None = None,
    measurement: Measurement | None = None,
    fixes: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Diagnosis:
    """`explain` with the arguments as a tuple and a dict, and ``progress(what)`` told each step
    (the CLI shows the last one when it stops for ``--timeout``)."""
    report = progress or (lambda what: None)
    started = time.perf_counter()
    if not callable(fn):
        raise TypeError(
            f"explain needs the function itself, got {type(fn).__name__}: call explain(f, x), not explain(f(x))"
        )
    if isinstance(budget, bool) or not isinstance(budget, numbers.Real) or not 0 < budget < math.inf:
        raise ValueError(f"budget must be a finite number of seconds > 0, got {budget!r}")
    call_list = [Call.coerce(c) for c in calls] if calls is not None else None
    if call_list is not None and not call_list:
        raise ValueError("calls= is empty: give at least two calls, e.g. calls=[(x, 1), (x, 2)]")
    if call_list and not args and not kwargs:
        args, kwargs = call_list[0].args, call_list[0].kwargs
    selected, skipped = select_probes(probes, quick)
    name = label or _label(fn)
    if inspect.iscoroutinefunction(fn) or inspect.isgeneratorfunction(fn):  # no probe should call it
        check_call(fn, args, kwargs, name)
    report(f"tracing {name} to tell its framework")
    framework = _framework(fn, args, kwargs)
    if framework == "jax" and scale_axis not in (None, False, True):
        _scale.choose(fn, args, kwargs, scale_axis)  # a wrong scale_axis is the caller's error: raise now
    subject = Subject(fn, args, kwargs, label=name, framework=framework, calls=call_list, scale_axis=scale_axis,
                      budget=budget, quick=quick, measurement=measurement)
    findings = []
    ran = []
    seconds: dict[str, float] = {}
    for probe in selected:
        if framework not in probe.frameworks:
            skipped[probe.name] = f"not selected: applies to {', '.join(probe.frameworks)} functions"
            continue
        t0 = time.perf_counter()
        report(f"running the {probe.name!r} probe on {name}")
        try:
            found = probe.run(subject)
        except Exception as e:  # one probe failing must not cost the user the others
            skipped[probe.name] = f"failed: {type(e).__name__}: {_first_line(e)}"
            continue
        finally:
            seconds[probe.name] = time.perf_counter() - t0
        findings += found
        ran.append(probe.name)
    if measurement is None:  # a measurement given is a call that ran
        report(f"calling {name} as given, to check that it runs")
        check_call(fn, args, kwargs, name)
    if framework == "jax":
        report(f"timing the fixes of {name}")
        findings = _fixes.apply_fixes(subject, findings, started + budget, enabled=fixes, budget=budget)
    if framework not in ("jax", "torch"):
        subject.notes.append(
            f"{name} looks like a {framework} function (no JAX or PyTorch in its call): explain diagnoses "
            "JAX functions and PyTorch modules"
        )
    subject.measured["probe_seconds"] = seconds
    if subject.shortening:
        subject.measured["shortened"] = subject.shortening.to_dict()
    return Diagnosis(
        label=name,
        framework=framework,
        findings=rank(findings),
        measured=dict(subject.measured),
        probes=tuple(ran),
        skipped=skipped,
        notes=tuple(subject.notes),
        elapsed=time.perf_counter() - started,
    )


def select_probes(names: Sequence[str] | None, quick: bool) -> tuple[list[Probe], dict[str, str]]:
    """The probes to run, in their fixed order, and why each other one is left out."""
    every = all_probes()
    known = [p.name for p in every]
    if isinstance(names, str):
        names = [names]
    if names is not None:
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ValueError(f"unknown probe(s) {', '.join(map(repr, unknown))}: expected some of {', '.join(known)}")
    selected, skipped = [], {}
    for p in every:
        if names is not None and p.name not in names:
            skipped[p.name] = "not selected: not in probes="
        elif names is None and quick and p.name not in QUICK_PROBES:
            skipped[p.name] = "not selected: quick=True"
        else:
            selected.append(p)
    return selected, skipped


def _framework(fn: Any, args: tuple, kwargs: dict) -> str:
    """The framework the call belongs to; a function of NumPy inputs or Python numbers is JAX when it
    traces under JAX into a program, or when tracing fails on a JAX value read on the host (a
    ``while i < n`` over the result of a jitted call: JAX code that cannot be jitted whole) and
    the call returns a JAX array."""
    framework = framework_of(fn, args, kwargs)
    if framework in ("numpy", "python") and "jax" in sys.modules:
        try:
            jitted, arrays = fresh_jit(fn, args, kwargs)
            trace = trace_once(jitted, tuple(arrays), {})
        except Exception:  # not something JAX can trace: keep the first answer
            return framework
        if trace.ok and trace.jaxpr.jaxpr.eqns:
            return "jax"
        if trace.error is not None and type(trace.error).__name__ in HOST_READ_ERRORS and _returns_jax(fn, args, kwargs):
            return "jax"
    return framework


def _returns_jax(fn: Any, args: tuple, kwargs: dict) -> bool:
    """Called as given, ``fn`` returns a JAX array (a NumPy function fed tracers fails the same way)."""
    import jax

    try:
        out = fn(*args, **kwargs)
    except Exception:  # the probes will say what fails
        return False
    return any(isinstance(leaf, jax.Array) for leaf in jax.tree_util.tree_leaves(out))


def check_call(fn: Callable[..., Any], args: tuple, kwargs: dict, name: str) -> None:
    """Call ``fn`` as given once; raise `CallFailed` if it raises or returns something lazy (nothing ran).

    Probes record their own failures and go on, so a function that always raises, or example
    arguments that do not fit it, would otherwise read as "nothing found"."""
    try:
        result = fn(*args, **kwargs)
    except Exception as e:
        raise CallFailed(_failure(fn, args, kwargs, name, e)) from e
    lazy = lazy_kind(result)
    if lazy:
        if inspect.iscoroutine(result):
            result.close()  # never awaited: closed, so Python does not warn about it
        fix = ("explain the synchronous function the coroutine awaits"
               if lazy == "coroutine" else "return the values (e.g. return list(...)), or explain the function "
               "that computes each one")
        raise CallFailed(f"{name} returned a {lazy}: nothing ran, so there is nothing to diagnose (LB001): {fix}")


def _failure(fn: Any, args: tuple, kwargs: dict, name: str, e: Exception) -> str:
    """One line: the exception, where it was raised in the user's code, and the fix."""
    what = f"{type(e).__name__}: {_first_line(e)}"
    where = _user_frame(e)
    if where is None and isinstance(e, TypeError):  # raised by the call itself: the arguments do not fit
        try:
            signature = f"{name}{inspect.signature(fn)}"
        except (TypeError, ValueError):
            signature = name
        return (f"calling {name} with the example arguments ({len(args)} positional, {len(kwargs)} keyword) "
                f"raised {what}: make the example arguments fit {signature}")
    at = f" at {where}" if where else ""
    return (f"calling {name} as given raised {what}{at}: explain needs a call that runs; fix the function or "
            "its example arguments")


def _user_frame(e: BaseException) -> str | None:
    """``file.py:LINE in function`` of the innermost frame in the user's code (not levelbench, not an installed
    package, not the standard library), or None."""
    import sysconfig

    skip = {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    skip |= {os.path.abspath(sysconfig.get_paths()[k]) for k in ("stdlib", "purelib", "platlib")}
    frames = traceback.extract_tb(e.__traceback__)
    for frame in reversed(frames):
        path = os.path.abspath(frame.filename)
        if frame.filename.startswith("<frozen"):
            continue
        if not any(path.startswith(folder + os.sep) for folder in skip):
            return f"{os.path.basename(path)}:{frame.lineno} in {frame.name}"
    return None


def _label(fn: Any) -> str:
    if transform_of(fn):  # jax.grad(f) carries f's name: call it by the name the user bound it to
        return jit_fix(fn, "f")[0]
    name = getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", None) or type(fn).__name__
    return str(name)


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else ""
