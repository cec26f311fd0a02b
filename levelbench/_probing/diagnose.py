"""`explain(fn, *args)`: run the probes on one function and rank what they find."""

from __future__ import annotations

import contextlib
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
from .._values.progress import ProgressLine
from .._frameworks import framework_of
from .._measuring.checks import lazy_kind
from . import budget as _budget
from . import fixes as _fixes
from . import scale as _scale
from .arguments import Call, jit_fix, transform_of
from .._results.diagnosis import Diagnosis, rank
from .probes import Probe, all_probes, in_order
from .probes.transfers import HOST_READ_ERRORS
from .subject import CallRecord, Subject, fresh_jit, recording_compiles, trace_once

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
        budget: the seconds explain may take after the function's own first call (its trace and
            compile, which explain cannot avoid). Each probe's cost is estimated before it runs
            from what was measured so far; a probe or fix trial that would not fit is skipped and
            listed in ``Diagnosis.skipped`` / the fix's evidence as "skipped for time", with the
            budget that would run it. Each timing samples for a twentieth of it (at most 0.5 s),
            and an input whose projected compile time exceeds a quarter of it (at least 1 s) is
            shortened for the probes after the unrolled-loop one. On a terminal, a line on
            standard error says which probe runs and what is left once explain has run 3 s.
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

    The call as given is made first (twice: its first call and a steady one, each on copies of its
    JAX arrays), and if it raises (or returns a lazy generator or a coroutine, so nothing ran)
    explain raises `CallFailed`, which says where and the fix, instead of reporting "nothing found"
    about a function that never ran. A probe that fails is recorded in ``Diagnosis.skipped`` and
    the others still run.

    Examples:
        >>> import jax, jax.numpy as jnp, levelbench
        >>> f = jax.jit(lambda x: jnp.sin(x) @ x)
        >>> d = levelbench.explain(f, jnp.ones((64, 64)), quick=True)
        >>> [f.code for f in d.findings if f.severity >= levelbench.Severity.WARNING]
        []
    """
    line = ProgressLine("explain")  # on a terminal's stderr only, once explain has run a few seconds
    try:
        return diagnose(fn, args, kwargs, scale_axis=scale_axis, calls=calls, probes=probes, quick=quick,
                        budget=budget, label=label, measurement=measurement, fixes=fixes, progress=line)
    finally:
        line.close()


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
    clock: Callable[[], float] = time.perf_counter,
) -> Diagnosis:
    """`explain` with the arguments as a tuple and a dict, and ``progress(what)`` told each step
    (the CLI shows the last one when it stops for ``--timeout``, and each on a terminal).

    ``clock``: the budget's clock (a fake one in tests)."""
    report = progress or (lambda what: None)
    started = clock()
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
    # The budget runs from the end of the first call: a measurement given (`levelbench run`, beside
    # its own timing) is a call that ran, and its probes are chosen by the caller, so none is skipped.
    schedule = None
    if measurement is None:
        report(f"calling {name} as given (its first call: trace and compile), then once more")
        records: list[CallRecord] | None = [] if framework == "jax" else None
        first_call = timed_call(fn, args, kwargs, name, clock, records)
        steady = timed_call(fn, args, kwargs, name, clock, records)
        if records:
            subject.record_given_calls(records)
        schedule = _budget.Schedule(budget, clock() - steady, clock=clock)
        before = schedule.start - started - first_call  # telling the framework: a trace, part of the first call
        subject.measured["budget"] = {"first_call": first_call + before, "second_call": steady}
    findings = []
    ran = []
    seconds: dict[str, float] = {}
    estimates: dict[str, float] = {}
    selected = in_order(selected, jitted=subject.is_jitted)
    runnable = [p for p in selected if framework in p.frameworks]
    for probe in selected:
        if framework not in probe.frameworks:
            skipped[probe.name] = f"not selected: applies to {', '.join(probe.frameworks)} functions"
            continue
        left_after = [p.name for p in runnable[runnable.index(probe) + 1:]]
        if schedule is not None:
            if framework == "jax" and fixes and any(f.code in _fixes.TRIED_CODES for f in findings):
                schedule.reserve = _budget.FIX_SHARE * budget  # a fix to measure: the probes leave it time
            needs = _budget.estimate(probe.name, subject, _budget.costs_of(subject, first_call, steady))
            estimates[probe.name] = needs
            # A probe that only reads facts measured already (its own Python work left) runs whatever is
            # left: a second call that compiled again took the budget, and LB210 is decided by its count.
            skip = None if needs <= _budget.PROBE_OVERHEAD else schedule.fits(
                _budget.PROBE_WORDS.get(probe.name, f"the {probe.name} probe"), needs)
            if skip is not None:
                skipped[probe.name] = skip.reason()
                continue
            report(f"running the {probe.name!r} probe on {name} (about {needs:.2g} s; "
                   f"{max(schedule.left(), 0):.0f} s of the budget left"
                   + (f"; then {', '.join(left_after)}" if left_after else "") + ")")
        else:
            report(f"running the {probe.name!r} probe on {name}")
        t0 = clock()
        try:
            found = probe.run(subject)
        except Exception as e:  # one probe failing must not cost the user the others
            skipped[probe.name] = f"failed: {type(e).__name__}: {_first_line(e)}"
            continue
        finally:
            seconds[probe.name] = clock() - t0
        findings += found
        ran.append(probe.name)
    if framework == "jax":
        report(f"timing the fixes of {name}")
        if schedule is not None:
            findings = _fixes.apply_fixes(subject, findings, schedule.deadline, enabled=fixes)
        else:
            findings = _fixes.apply_fixes(subject, findings, started + budget, enabled=fixes, budget=budget)
    if framework not in ("jax", "torch"):
        subject.notes.append(
            f"{name} looks like a {framework} function (no JAX or PyTorch in its call): explain diagnoses "
            "JAX functions and PyTorch modules"
        )
    subject.measured["probe_seconds"] = seconds
    if schedule is not None:
        subject.measured["budget"].update(schedule.to_dict(), estimates=estimates)
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
        elapsed=clock() - started,
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


def timed_call(fn: Callable[..., Any], args: tuple, kwargs: dict, name: str,
               clock: Callable[[], float] = time.perf_counter, records: list[CallRecord] | None = None) -> float:
    """`check_call`, waiting for the result: the seconds the call took. With ``records`` (a JAX
    function), what the call compiled is appended to it (`recording_compiles`)."""
    args, kwargs = _copies(args, kwargs)
    with recording_compiles(records) if records is not None else contextlib.nullcontext():
        t0 = clock()
        check_call(fn, args, kwargs, name, wait=True)
        seconds = clock() - t0
    return seconds


def _copies(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The call with each JAX array copied: a function that donates its input deletes the array it
    is given, and the probes still need the caller's."""
    if "jax" not in sys.modules:
        return args, kwargs
    import jax

    def copy(x: Any) -> Any:
        return x.copy() if isinstance(x, jax.Array) else x

    try:
        return jax.tree_util.tree_map(copy, (args, kwargs))
    except Exception:  # not a pytree JAX can map over: the call as given
        return args, kwargs


def check_call(fn: Callable[..., Any], args: tuple, kwargs: dict, name: str, wait: bool = False) -> None:
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
    if wait:
        _wait_for(result)


def _wait_for(result: Any) -> None:
    """Block until a JAX or PyTorch result is computed (a timed call must include its work)."""
    if "jax" in sys.modules:
        import jax

        try:
            jax.block_until_ready(result)
        except Exception:  # not a pytree of arrays JAX can wait on: nothing asynchronous to wait for
            pass
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        torch.cuda.synchronize()


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
