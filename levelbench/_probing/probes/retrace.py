"""LB210-LB212: the function compiles again on calls that should reuse the compiled program.

The function is called several times: with the same arguments (default), or with the user's own
sequence (``calls=``). JAX's compile events (with the function each was for) count what compiled
during each call after the first, and JAX's own cache-miss explanations are kept as evidence.

LB210: identical calls compile: a ``jax.jit`` is created inside the function (``jit(lambda ...)``).
LB211: a call compiles after an argument changed: its shape, dtype, pytree structure, static
value or identity, named with old and new values. LB212: without ``calls=``, each Python int
argument is tried with another value; if that compiles, the argument is static.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import numpy as np

from ..._values.findings import Finding, Severity
from ..._values.units import fmt_time
from ..._frameworks import compile_events
from .. import scale as _scale
from ..arguments import Call, describe, jit_fix, is_array, leaves, rebuild, structure
from ..subject import CallRecord, Subject, call_each
from .base import Probe
from ..._values.units import short_path

@dataclasses.dataclass(frozen=True)
class Change:
    """One argument that differs between two calls."""

    argument: str
    kind: str  # "structure", "shape", "dtype", "type", "value", "identity"
    old: str
    new: str


def run(subject: Subject) -> list[Finding]:
    given = subject.calls is not None
    if identical_calls_recompile(subject):
        # explain's own second call, the same as its first, compiled again: every call of the
        # user's sequence would too, so no argument change can be blamed (and none is called)
        given = False
    if given:
        calls = [_as_run(subject, c) for c in subject.calls]
        records = call_each(subject.fn, calls)
    else:
        records = subject.repeated_calls()
        calls = [Call(*subject.args, **subject.kwargs)] * len(records)
    subject.measured["retrace"] = {
        "calls": len(records),
        "compilations": [r.compilations for r in records],
        "traces": [r.traces for r in records],
    }
    found = []
    for i in range(1, len(records)):
        if records[i].compilations == 0:
            continue
        changes = differences(subject.fn, calls[i - 1], calls[i])
        found.append(_changed(subject, i, records[i], changes) if changes else _identical(subject, i, records[i]))
    found = _merge(found)
    if not given and not found and not subject.quick:
        found += static_ints(subject)
    return found


def identical_calls_recompile(subject: Subject) -> bool:
    """The repeated identical calls are known already and each after the first compiled (seeded
    by explain's own two calls as given, `Subject.record_given_calls`)."""
    return subject.known("repeated_calls") and subject.compiles_every_call()


def differences(fn: Any, old: Call, new: Call) -> list[Change]:
    """What differs between two calls, in the order JAX's cache key sees it."""
    before, after = structure(old.args, old.kwargs), structure(new.args, new.kwargs)
    if before != after:
        return [Change("arguments", "structure", str(before), str(after))]
    changes = []
    for a, b in zip(leaves(fn, old.args, old.kwargs), leaves(fn, new.args, new.kwargs)):
        kind = _difference(a.value, b.value)
        if kind:
            changes.append(Change(a.name, kind, _show(a.value, kind), _show(b.value, kind)))
    return changes


def _difference(a: Any, b: Any) -> str | None:
    if is_array(a) and is_array(b):
        if np.shape(a) != np.shape(b):
            return "shape"
        if np.dtype(a.dtype) != np.dtype(b.dtype):
            return "dtype"
        return None
    if type(a) is not type(b):
        return "type"
    try:
        equal = bool(a == b)
    except Exception:  # objects whose == is not a bool (arrays inside): compare identity only
        equal = a is b
    if not equal:
        return "value"
    if a is not b and type(a).__eq__ is object.__eq__:
        return "identity"
    return None


def _show(x: Any, kind: str) -> str:
    if kind == "shape":
        return str(tuple(np.shape(x)))
    if kind == "dtype":
        return np.dtype(x.dtype).name
    if kind == "identity":
        return f"{type(x).__name__} at 0x{id(x):x}"
    return describe(x)


_FIXES = {
    "shape": "pad inputs to a few fixed sizes (buckets) so each size compiles once:\n"
             "    x = jnp.pad(x, (0, bucket - len(x)))",
    "dtype": "cast to one dtype before the call: x = x.astype(jnp.float32)",
    "type": "pass the same kind of value every call (always an array, or always a Python number)",
    "structure": "keep the pytree the same from call to call (same keys, same list lengths, None in the same places)",
    "value": "pass it as an array if it only enters arithmetic: f(x, jnp.asarray(n)) (not static);\n"
             "if it sets a shape, use few distinct values",
    "identity": "pass the same object every call, or make it hashable by value (a frozen dataclass);\n"
                "bind it once: g = functools.partial(f, obj)  # outside the loop",
}


def _changed(subject: Subject, i: int, record: CallRecord, changes: list[Change]) -> Finding:
    first = changes[0]
    names = _functions(record)
    explained = _explanation(record)
    evidence = (f"call {i + 1} compiled {names} ({fmt_time(record.seconds)} tracing and compiling) after "
                + "; ".join(f"{c.argument} changed {c.kind}: {c.old} -> {c.new}" for c in changes[:4]))
    if explained:
        evidence += f". JAX: {explained}"
    return Finding(
        "LB211",
        f"recompiles when {first.argument} changes ({first.kind} {first.old} -> {first.new})",
        Severity.WARNING,
        evidence=evidence,
        cost=f"~{fmt_time(record.seconds)} of tracing and compiling on each call where it changes",
        fix=_FIXES[first.kind],
        subject=first.argument,
        data={"cost_seconds": record.seconds, "calls": [i + 1], "argument": first.argument, "kind": first.kind,
              "old": first.old, "new": first.new,
              "changes": [dataclasses.asdict(c) for c in changes]},
    )


# Programs JAX compiles for a control-flow primitive run outside jit: ``jit(scan)``, ``jit(while)``.
_EAGER_PRIMITIVES = re.compile(r"^jit\((scan|while|cond|switch|remat|checkpoint|custom_jvp_call|custom_vjp_call)\)$")


def _identical(subject: Subject, i: int, record: CallRecord) -> Finding:
    explained = _explanation(record)
    defined = _defined_at(record)
    evidence = f"call {i + 1} had the same arguments as call {i} and compiled {_functions(record)} ({fmt_time(record.seconds)})"
    if explained:
        evidence += f". JAX: {explained}"
    eager = [m.group(1) for f in record.functions if (m := _EAGER_PRIMITIVES.match(f))]
    if not subject.is_jitted and eager and len(eager) == len(record.functions):
        # Outside jit, a lax.scan/while/cond is staged and compiled on its own, its body a new
        # function each call: the fix is jit around the whole function, not a jit hoisted out of it.
        name, expression = jit_fix(subject.fn, subject.label)
        loops = ", ".join(f"lax.{p}" for p in dict.fromkeys(eager))
        title = f"{subject.label} is not jitted: each call compiles its {loops} again"
        fix = f"{name} = {expression}   # jit the outermost function, once: its {loops} then compiles once"
        subject_name = subject.label
    else:
        title = "recompiles on every call with identical arguments: a jax.jit is created inside the function"
        fix = ("jit once, outside the function, and reuse it:\n"
               "    _step = jax.jit(step)        # module level\n"
               "    def f(x): return _step(x)    # not: jax.jit(lambda y: ...)(x) inside f")
        subject_name = defined or subject.label
    return Finding(
        "LB210",
        title,
        Severity.ERROR,
        evidence=evidence,
        cost=f"~{fmt_time(record.seconds)} of tracing and compiling on every call"
             + ("; the first call compiles under jit too, so a function called once loses nothing: every further "
                "call pays it again" if not subject.is_jitted else ""),
        fix=fix,
        subject=subject_name,
        data={"cost_seconds": record.seconds, "calls": [i + 1], "functions": list(record.functions)},
    )


def _merge(found: list[Finding]) -> list[Finding]:
    """One finding per culprit, listing every call it recompiled."""
    merged: dict[tuple[str, str], Finding] = {}
    for f in found:
        key = (f.code, f.subject)
        if key not in merged:
            merged[key] = f
            continue
        calls = merged[key].data["calls"] + f.data["calls"]
        merged[key] = dataclasses.replace(merged[key], data={**merged[key].data, "calls": calls})
    out = []
    for f in merged.values():
        calls = f.data["calls"]
        if len(calls) > 1:
            f = dataclasses.replace(f, evidence=f"calls {', '.join(map(str, calls))} all recompiled; e.g. {f.evidence}")
        out.append(f)
    return out


def static_ints(subject: Subject) -> list[Finding]:
    """Try each Python int argument (up to two) with another value: does that compile?"""
    import jax

    ints = [leaf for leaf in leaves(subject.fn, subject.args, subject.kwargs) if type(leaf.value) is int][:2]
    found = []
    for leaf in ints:
        args, kwargs = rebuild(subject.args, subject.kwargs, {leaf.index: leaf.value + 1})
        try:
            with compile_events() as log:
                jax.block_until_ready(subject.fn(*args, **kwargs))
        except Exception:  # the other value is not valid for this function: nothing to learn
            continue
        if log.compilations:
            found.append(Finding(
                "LB212",
                f"each new value of {leaf.name} compiles again (it is static or sets a shape)",
                Severity.INFO,
                evidence=f"calling with {leaf.name}={leaf.value + 1} instead of {leaf.value} compiled "
                         f"{', '.join(dict.fromkeys(log.compiled_functions()))} ({fmt_time(log.total_seconds)})",
                cost=f"~{fmt_time(log.total_seconds)} per new value, if it changes between calls",
                fix=_FIXES["value"],
                subject=leaf.name,
                data={"cost_seconds": log.total_seconds, "argument": leaf.name},
            ))
    return found


def _as_run(subject: Subject, call: Call) -> Call:
    """A call of the user's sequence, shortened like the example call if the probes run shortened."""
    s = subject.shortening
    if s is None:
        return call
    for leaf in leaves(subject.fn, call.args, call.kwargs):
        if leaf.name == s.argument and is_array(leaf.value) and np.ndim(leaf.value) > s.axis:
            length = int(np.shape(leaf.value)[s.axis])
            if length > s.to:
                scale = _scale.ScaleAxis(leaf.index, leaf.name, s.axis, length, guessed=False)
                args, kwargs = _scale.shorten(call.args, call.kwargs, scale, s.to)
                return Call(*args, **kwargs)
    return call


def _functions(record: CallRecord) -> str:
    names = list(dict.fromkeys(record.functions))
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "") if names else "a program"


def _explanation(record: CallRecord) -> str:
    """JAX's cache-miss explanation, on one line, without the call site header."""
    for text in record.explanations:
        lines = [ln.strip() for ln in text.splitlines()[1:] if ln.strip()]
        if lines:
            joined = " ".join(lines)
            return joined if len(joined) <= 300 else joined[:297] + "..."
    return ""


def _defined_at(record: CallRecord) -> str:
    """Where the function that keeps compiling is defined (``file.py:12``), from JAX's explanation."""
    for text in record.explanations:
        m = re.search(r"defined at (\S+):(\d+)", text)
        if m:
            return f"{short_path(m.group(1))}:{m.group(2)}"
    return ""


PROBE = Probe("retrace", ("LB210", "LB211", "LB212"), run,
              summary="recompilation on repeated calls, naming the argument that changed")
