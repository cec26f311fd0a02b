"""LB230-LB232: the precision JAX really computes in.

With ``jax_enable_x64`` off (the default) JAX silently computes float64 requests in float32:
NumPy float64 inputs are converted (LB230) and explicit dtype requests inside the function are
truncated with a UserWarning (LB231, caught while tracing). Python floats and lists carry float64
intent too (they are float64 in NumPy) but JAX neither warns nor converts visibly: the call is run
again with x64 on, and when the outputs differ by more than float32 rounding, the Python float
arguments (LB230) or the line where float64 enters the program (LB231) are reported with both
values. On GPU and TPU, float32 matmuls run at the backend's default precision (TF32 or bf16
passes) unless asked otherwise (LB232).
"""

from __future__ import annotations

import collections
import dataclasses
from typing import Any

import numpy as np

from ..._values.findings import Finding, Severity
from ..._values.settings import PROBING
from ..arguments import describe, leaves
from ..jaxpr import SourceLine, count_equations, iter_equations, open_jaxpr, user_line
from ..subject import Subject
from .base import Probe
from ..._values.units import short_path

_WIDE = {"float64", "complex128"}
_X64_FIX = ('jax.config.update("jax_enable_x64", True)   # at start-up, before any array is created\n'
            "# or compare in float32 on every side: x = x.astype(np.float32)")


def run(subject: Subject) -> list[Finding]:
    import jax

    x64 = bool(getattr(jax.config, "jax_enable_x64", False))
    subject.measured["x64"] = x64
    found = []
    trace = subject.traced()
    difference = None
    if not x64 and trace.ok:
        difference = x64_difference(subject)
        if isinstance(difference, str):
            subject.notes.append(f"float64 comparison skipped: {difference}")
            difference = None
        elif difference is not None:
            subject.measured["x64_difference"] = difference.to_dict()
    if not x64:
        found += wide_inputs(subject, trace, difference)
    found += truncation_warnings(trace.warnings, difference)
    if not found and difference is not None and difference.beyond_rounding:
        found.append(float64_intent(subject, difference))
    if trace.ok:
        found += matmul_precision(trace.jaxpr, jax.default_backend(), jax.config.jax_default_matmul_precision)
    return found


# -- the same call with x64 on -----------------------------------------------------------------
_RANDOM = frozenset({"random_bits", "random_seed", "random_wrap", "threefry2x32", "random_fold_in", "random_split"})


@dataclasses.dataclass(frozen=True)
class X64Difference:
    """The call as run (x64 off) against the same call with x64 on: what its float64 intent asked for.

    ``output`` is the floating output that differs most, ``relative`` its normwise relative
    difference, ``as_given``/``float64`` its element that differs most; ``line`` is where float64
    first enters the program with x64 on (None when it enters through an argument).
    """

    output: str
    as_given: complex | float
    float64: complex | float
    relative: float
    dtype: str
    dtype64: str
    line: SourceLine | None
    whole: bool = False  # float64 gives a whole number float32 cannot hold, and float32 another one

    @property
    def beyond_rounding(self) -> bool:
        return not self.relative <= PROBING.float32_agreement or self.whole  # nan counts as beyond

    def evidence(self) -> str:
        if self.whole and self.relative <= PROBING.float32_agreement:
            return (f"with jax_enable_x64 on, {self.output} is the whole number {_value(self.float64, 17)} "
                    f"({self.dtype64}); as run (x64 off) it is {_value(self.as_given, 17)} ({self.dtype}): past "
                    f"2**24 = {FLOAT32_WHOLE:,} float32 cannot hold every whole number, so the printed result "
                    "changes, though by float32 rounding")
        if not self.beyond_rounding:
            return (f"with jax_enable_x64 on, {self.output} ({self.dtype64}) agrees with the float32 one to "
                    f"{self.relative:.2g} (relative): within float32 rounding here")
        return (f"with jax_enable_x64 on, {self.output} is {_value(self.float64, 12)} ({self.dtype64}); as run "
                f"(x64 off) it is {_value(self.as_given, 7)} ({self.dtype}): a relative difference of "
                f"{self.relative:.2g}, beyond float32 rounding ({PROBING.float32_agreement:.0e})")

    def to_dict(self) -> dict[str, Any]:
        return {"output": self.output, "as_given": _plain(self.as_given), "float64": _plain(self.float64),
                "relative": self.relative, "dtype": self.dtype, "dtype64": self.dtype64,
                "line": str(self.line) if self.line else None, "beyond_rounding": self.beyond_rounding,
                "whole": self.whole}


def x64_difference(subject: Subject) -> X64Difference | str | None:
    """Run the jitted call again with x64 on and compare the floating outputs.

    None when nothing would change (no float64 anywhere in the program with x64 on) or there is
    nothing to compare; a string says why the comparison was not made.
    """
    import jax

    f, args, kwargs = subject.jit_target()
    try:
        with jax.enable_x64(True):
            jaxpr64 = f.trace(*args, **kwargs).jaxpr
    except Exception as e:  # traces only in float32 (e.g. a dtype check): nothing to compare
        return f"tracing with x64 on failed: {type(e).__name__}"
    wide = [e for e in iter_equations(jaxpr64) if any(_dtype(v) in _WIDE for v in e.outvars)]
    program = open_jaxpr(jaxpr64)
    wide_inputs = [v for v in (*program.invars, *program.constvars) if _dtype(v) in _WIDE]
    if not wide and not wide_inputs:
        return None  # the same program either way
    if any(e.primitive.name in _RANDOM for e in iter_equations(jaxpr64)):
        return "random draws in float64 are different numbers, not a more precise result"
    if count_equations(jaxpr64) > PROBING.float64_rerun_equations:
        return f"{count_equations(jaxpr64):,} equations: too large to compile again"
    compiled = subject.compiled()  # first, so the compile split stays a cold one
    if compiled is None:
        return None
    try:
        if subject.is_jitted:
            out32 = jax.block_until_ready(f(*args, **kwargs))
        else:  # the fresh jit explain compiled already: no second compilation
            out32 = jax.block_until_ready(compiled.executable(*args, **kwargs))
        with jax.enable_x64(True):
            out64 = jax.block_until_ready(f(*args, **kwargs))
    except Exception as e:  # the function fails in one of the precisions: say nothing about it
        return f"running with x64 on failed: {type(e).__name__}"
    line = next((line for e in wide if (line := user_line(e)) is not None), None)
    return compare_outputs(out32, out64, line)


def compare_outputs(out32: Any, out64: Any, line: SourceLine | None = None) -> X64Difference | None:
    """The floating output whose x64-off value differs most from its x64-on value, or None."""
    import jax

    pairs32 = jax.tree_util.tree_flatten_with_path(out32)[0]
    pairs64 = jax.tree_util.tree_flatten_with_path(out64)[0]
    worst = whole = None
    for (path, a), (_, b) in zip(pairs32, pairs64):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or not (np.issubdtype(b.dtype, np.inexact) or np.issubdtype(a.dtype, np.inexact)):
            continue
        relative, i = _relative_difference(a, b)
        name = "the output" + jax.tree_util.keystr(path) if path else "the output"
        if worst is None or relative > worst[0] or (np.isnan(relative) and not np.isnan(worst[0])):
            worst = (relative, name, a.ravel()[i].item() if a.size else 0.0, b.ravel()[i].item() if b.size else 0.0,
                     str(a.dtype), str(b.dtype))
        j = _lost_whole_number(a, b)
        if whole is None and j is not None:
            whole = (relative, name, a.ravel()[j].item(), b.ravel()[j].item(), str(a.dtype), str(b.dtype))
    if worst is None:
        return None
    if whole is not None and worst[0] <= PROBING.float32_agreement:
        # within rounding, but the number a reader sees is another whole number: the float64 intent shows
        return X64Difference(*whole[1:4], float(whole[0]), *whole[4:], line, whole=True)
    relative, name, v32, v64, dtype, dtype64 = worst
    return X64Difference(name, v32, v64, float(relative), dtype, dtype64, line)


# Every whole number up to 2**24 is a float32; past it float32 skips some (every second, then more).
FLOAT32_WHOLE = 2 ** 24


def _lost_whole_number(a: np.ndarray, b: np.ndarray) -> int | None:
    """The index of an element whose float64 value ``b`` is a whole number past `FLOAT32_WHOLE` (and
    below 2**53, where float64 still tells whole numbers apart) that the float32 value ``a`` misses, or
    None. Integer arithmetic on Python floats (a sum of squares, a count) is exact in float64 and in
    Python; float32 then prints another number: jit gives 24552024.0 where Python gives 24552025.0."""
    if np.iscomplexobj(a) or np.iscomplexobj(b) or not a.size:
        return None
    a64, b64 = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    with np.errstate(invalid="ignore"):
        lost = (np.isfinite(b64) & (np.abs(b64) > FLOAT32_WHOLE) & (np.abs(b64) < 2.0 ** 53)
                & (b64 == np.round(b64)) & (a64 != b64))
    hits = np.flatnonzero(lost)
    return int(hits[0]) if hits.size else None


def _relative_difference(a: np.ndarray, b: np.ndarray) -> tuple[float, int]:
    """Normwise relative difference of ``a`` from ``b`` and the index of the element that differs most.

    Equal non-finite values (nan where both are nan, the same inf) count as equal; an overflow to
    inf or a nan on one side only is an infinite difference."""
    kind = np.complex128 if np.iscomplexobj(a) or np.iscomplexobj(b) else np.float64
    a, b = a.astype(kind).ravel(), b.astype(kind).ravel()
    if not a.size:
        return 0.0, 0
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(same, 0.0, a - b)
    worst = np.abs(np.nan_to_num(diff, nan=np.inf))
    i = int(np.argmax(worst))
    if not np.isfinite(worst[i]):
        return float("inf"), i
    scale = max(np.linalg.norm(a[np.isfinite(a)]), np.linalg.norm(b[np.isfinite(b)]))
    norm = float(np.linalg.norm(diff))
    return (norm / scale if scale > 0 else (0.0 if norm == 0 else float("inf"))), i


def _value(v: Any, digits: int) -> str:
    return f"{v:.{digits}g}" if isinstance(v, (int, float)) else str(v)


def _plain(v: Any) -> Any:
    return v if isinstance(v, (int, float)) else str(v)


def float64_intent(subject: Subject, difference: X64Difference) -> Finding:
    """LB230 when Python floats among the arguments carry the intent, else LB231 at the line."""
    floats = [leaf for leaf in leaves(subject.fn, subject.args, subject.kwargs)
              if isinstance(leaf.value, float)]
    groups: dict[str, list[Any]] = collections.defaultdict(list)  # a list of floats is one argument
    for leaf in floats:
        groups[leaf.name if leaf.whole else leaf.name.split("[")[0].split(".")[0]].append(leaf)
    where = f"; float64 enters the program at {difference.line}" if difference.line else ""
    cost = (f"the result is off by {difference.relative:.2g} (relative) from what the code computes in float64, "
            "and a float64 NumPy baseline does different work")
    data = {**difference.to_dict(), "cost_seconds": 0.0}
    if groups:
        names = list(groups)[:4]
        described = ", ".join(
            f"{name}={group[0].value!r}" if len(group) == 1 and group[0].whole
            else f"{name} ({len(group)} Python floats)" for name, group in list(groups.items())[:4])
        return Finding(
            "LB230",
            f"Python float argument{'s' if len(groups) > 1 else ''} {', '.join(names)} "
            "computed in float32: jax_enable_x64 is off, and the result changes",
            Severity.WARNING,
            evidence=f"{described} (float64 in Python and NumPy, float32 in JAX with x64 off); "
                     f"{difference.evidence()}{where}",
            cost=cost,
            fix=_X64_FIX,
            subject=names[0],
            data={**data, "arguments": list(groups)},
        )
    at = f" at {difference.line}" if difference.line else ""
    return Finding(
        "LB231",
        f"float64 intent{at} is computed in float32 (jax_enable_x64 is off), and the result changes",
        Severity.WARNING,
        evidence=("no float64 dtype is asked for, but Python floats, lists and default dtypes are float64 "
                  f"with x64 on (and in NumPy); {difference.evidence()}"),
        cost=cost,
        fix=_X64_FIX + "\n# or say float64 explicitly where it matters: jnp.asarray(v, dtype=jnp.float64) with x64 on",
        subject=str(difference.line) if difference.line else "",
        data=data,
    )


def wide_inputs(subject: Subject, trace: Any, difference: X64Difference | None = None) -> list[Finding]:
    wide = [leaf for leaf in leaves(subject.fn, subject.args, subject.kwargs)
            if isinstance(leaf.value, (np.ndarray, np.generic)) and np.dtype(leaf.value.dtype).name in _WIDE]
    if not wide:
        return []
    out_dtypes = sorted({str(v.aval.dtype) for v in open_jaxpr(trace.jaxpr).outvars}) if trace.ok else []
    result = f"; the outputs are {', '.join(out_dtypes)}" if out_dtypes else ""
    names = ", ".join(f"{leaf.name} ({describe(leaf.value)})" for leaf in wide[:4])
    compared = f"; {difference.evidence()}" if difference is not None else ""
    return [Finding(
        "LB230",
        f"float64 input{'s' if len(wide) > 1 else ''} {', '.join(leaf.name for leaf in wide[:4])} "
        "computed in float32: jax_enable_x64 is off",
        Severity.WARNING,
        evidence=f"{names} passed with jax_enable_x64=False: JAX converts them to float32{result}{compared}",
        cost="results carry ~1e-7 relative error, not ~1e-16; a comparison against NumPy float64 compares "
             "float32 JAX with float64 NumPy (different work and different answers)",
        fix=_X64_FIX,
        subject=wide[0].name,
        data={"arguments": [leaf.name for leaf in wide]},
    )]


def truncation_warnings(caught: Any, difference: X64Difference | None = None) -> list[Finding]:
    """One finding per source line that asked for a dtype JAX truncated."""
    lines: dict[tuple[str, int], list[str]] = collections.defaultdict(list)
    for w in caught:
        text = str(w.message)
        if "not available" in text and "truncated" in text:
            lines[(w.filename, w.lineno)].append(text.split(". ")[0])
    found = []
    for (filename, lineno), messages in lines.items():
        where = f"{short_path(filename)}:{lineno}"
        found.append(Finding(
            "LB231",
            f"a float64 request at {where} is truncated to float32 (jax_enable_x64 is off)",
            Severity.WARNING,
            evidence=f"JAX warned while tracing: {messages[0]}" + (f" ({len(messages)}x)" if len(messages) > 1 else "")
            + (f"; {difference.evidence()}" if difference is not None else ""),
            cost="the computation runs in float32 while the code says float64; a float64 NumPy baseline does different work",
            fix=_X64_FIX,
            subject=where,
            data={"file": filename, "line": lineno, "count": len(messages)},
        ))
    return found


def matmul_precision(jaxpr: Any, backend: str, default_precision: Any) -> list[Finding]:
    """Float32 matmuls left at the default precision on a backend where the default is reduced."""
    if backend not in ("gpu", "cuda", "rocm", "tpu") or default_precision is not None:
        return []
    loose = [e for e in iter_equations(jaxpr)
             if e.primitive.name in ("dot_general", "conv_general_dilated")
             and e.params.get("precision") is None
             and any(_dtype(v) == "float32" for v in e.invars)]
    if not loose:
        return []
    what = "TF32 (10-bit mantissa) on recent NVIDIA GPUs" if backend != "tpu" else "bfloat16 passes on TPU"
    return [Finding(
        "LB232",
        f"{len(loose)} float32 matmul(s) run at the {backend} default precision",
        Severity.INFO,
        evidence=f"jax_default_matmul_precision is unset and the program's float32 dot_general/conv equations "
                 f"carry no precision=; on {backend} the default may use {what}",
        cost="faster, but less precise than PyTorch's float32 default matmul: timings and results are not like for like",
        fix='jax.config.update("jax_default_matmul_precision", "highest")   # full float32\n'
            '# or match PyTorch to JAX: torch.backends.cuda.matmul.allow_tf32 = True',
        data={"matmuls": len(loose), "backend": backend},
    )]


def _dtype(var: Any) -> str:
    aval = getattr(var, "aval", None)
    return str(getattr(aval, "dtype", ""))


PROBE = Probe("precision", ("LB230", "LB231", "LB232"), run,
              summary="float64 truncated to float32, captured dtype warnings, GPU/TPU matmul precision")
