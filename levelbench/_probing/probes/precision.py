"""LB230-LB232: the precision JAX really computes in.

With ``jax_enable_x64`` off (the default) JAX silently computes float64 requests in float32:
NumPy float64 inputs are converted (LB230) and explicit dtype requests inside the function are
truncated with a UserWarning (LB231, caught while tracing). On GPU and TPU, float32 matmuls run at
the backend's default precision (TF32 or bf16 passes) unless asked otherwise (LB232).
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np

from ..._values.findings import Finding, Severity
from ..arguments import describe, leaves
from ..jaxpr import iter_equations, open_jaxpr
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
    if not x64:
        found += wide_inputs(subject, trace)
    found += truncation_warnings(trace.warnings)
    if trace.ok:
        found += matmul_precision(trace.jaxpr, jax.default_backend(), jax.config.jax_default_matmul_precision)
    return found


def wide_inputs(subject: Subject, trace: Any) -> list[Finding]:
    wide = [leaf for leaf in leaves(subject.fn, subject.args, subject.kwargs)
            if isinstance(leaf.value, (np.ndarray, np.generic)) and np.dtype(leaf.value.dtype).name in _WIDE]
    if not wide:
        return []
    out_dtypes = sorted({str(v.aval.dtype) for v in open_jaxpr(trace.jaxpr).outvars}) if trace.ok else []
    result = f"; the outputs are {', '.join(out_dtypes)}" if out_dtypes else ""
    names = ", ".join(f"{leaf.name} ({describe(leaf.value)})" for leaf in wide[:4])
    return [Finding(
        "LB230",
        f"float64 input{'s' if len(wide) > 1 else ''} {', '.join(leaf.name for leaf in wide[:4])} "
        "computed in float32: jax_enable_x64 is off",
        Severity.WARNING,
        evidence=f"{names} passed with jax_enable_x64=False: JAX converts them to float32{result}",
        cost="results carry ~1e-7 relative error, not ~1e-16; a comparison against NumPy float64 compares "
             "float32 JAX with float64 NumPy (different work and different answers)",
        fix=_X64_FIX,
        subject=wide[0].name,
        data={"arguments": [leaf.name for leaf in wide]},
    )]


def truncation_warnings(caught: Any) -> list[Finding]:
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
            evidence=f"JAX warned while tracing: {messages[0]}" + (f" ({len(messages)}x)" if len(messages) > 1 else ""),
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
