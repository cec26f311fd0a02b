"""Reading a traced program: equation counts, repeated blocks, liveness, matmul FLOPs, source lines.

Everything here takes a ``Jaxpr`` (or ``ClosedJaxpr``) and is pure, so each question about the
program is answered the same way by every probe and is unit-testable without running anything.
Sub-programs are found by duck typing (anything with ``.eqns``), so no private JAX module is needed.
"""

from __future__ import annotations

import collections
import dataclasses
import math
import os
import sysconfig
from collections.abc import Iterator
from typing import Any

import numpy as np

from .._values.units import short_path

# Primitives that leave the compiled program to run Python on the host.
CALLBACK_PRIMITIVES = frozenset({"pure_callback", "io_callback", "debug_callback", "debug_print", "callback"})


def open_jaxpr(j: Any) -> Any:
    """The ``Jaxpr`` inside a ``ClosedJaxpr`` (or the ``Jaxpr`` itself)."""
    return j.jaxpr if hasattr(j, "jaxpr") and hasattr(j.jaxpr, "eqns") else j


def sub_jaxprs(eqn: Any) -> Iterator[Any]:
    """The programs an equation carries in its parameters (jit, scan and while bodies, cond branches)."""
    for value in eqn.params.values():
        for v in value if isinstance(value, (tuple, list)) else (value,):
            inner = open_jaxpr(v)
            if hasattr(inner, "eqns"):
                yield inner


def count_equations(j: Any) -> int:
    """Equations in the program, sub-programs included, each body counted once where it appears.

    A ``scan`` body counts once whatever the trip count, which is why this number stays flat with
    sequence length for ``lax.scan`` and grows linearly for an unrolled Python loop.
    """
    j = open_jaxpr(j)
    return sum(1 + sum(count_equations(s) for s in sub_jaxprs(e)) for e in j.eqns)


def iter_equations(j: Any) -> Iterator[Any]:
    """Every equation, depth first, sub-programs included."""
    for e in open_jaxpr(j).eqns:
        yield e
        for s in sub_jaxprs(e):
            yield from iter_equations(s)


def primitive_counts(j: Any) -> collections.Counter[str]:
    return collections.Counter(e.primitive.name for e in iter_equations(j))


# -- matmul work -------------------------------------------------------------------------------
def matmul_flops(j: Any) -> float:
    """FLOPs of the program's ``dot_general`` equations (2 per multiply-add), scan bodies times their length.

    A lower bound on the arithmetic the source asks for: it ignores elementwise work and loops
    whose trip count is only known at run time (``while``).
    """
    total = 0.0
    for e in open_jaxpr(j).eqns:
        if e.primitive.name == "dot_general":
            total += _dot_flops(e)
        repeat = float(e.params.get("length", 1)) if e.primitive.name == "scan" else 1.0
        for s in sub_jaxprs(e):
            total += repeat * matmul_flops(s)
    return total


def _dot_flops(eqn: Any) -> float:
    try:
        (lhs_contract, _), _ = eqn.params["dimension_numbers"]
        lhs_shape = eqn.invars[0].aval.shape
        out_shape = eqn.outvars[0].aval.shape
        k = math.prod(lhs_shape[d] for d in lhs_contract)
        return 2.0 * math.prod(out_shape) * k
    except (KeyError, AttributeError, ValueError, TypeError, IndexError):
        return 0.0


# -- liveness and dependence -------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Liveness:
    """Which equations reach the outputs, and which outputs depend on the inputs."""

    equations: int
    dead_equations: int
    dead_matmuls: int
    matmuls: int
    dead_matmul_flops: float
    outputs: int
    constant_outputs: tuple[int, ...]  # indices of outputs computed from constants only


def liveness(j: Any) -> Liveness:
    """Backward liveness from the outputs (side-effecting equations count as live) and forward
    dependence from the inputs, at the top level; a sub-program counts as one equation."""
    j = open_jaxpr(j)
    live_vars = {v for v in j.outvars if _is_var(v)}
    live_eqns = [False] * len(j.eqns)
    for i in range(len(j.eqns) - 1, -1, -1):
        e = j.eqns[i]
        if getattr(e, "effects", None) or any(v in live_vars for v in e.outvars if _is_var(v)):
            live_eqns[i] = True
            live_vars.update(v for v in e.invars if _is_var(v))
    depends = set(j.invars)
    for e in j.eqns:
        if any(v in depends for v in e.invars if _is_var(v)):
            depends.update(v for v in e.outvars if _is_var(v))
    constant = tuple(i for i, v in enumerate(j.outvars) if not (_is_var(v) and v in depends))
    dots = [(i, e) for i, e in enumerate(j.eqns) if e.primitive.name == "dot_general"]
    dead_dots = [e for i, e in dots if not live_eqns[i]]
    dead_flops = sum(_dot_flops(e) for e in dead_dots)
    for i, e in enumerate(j.eqns):
        if not live_eqns[i]:
            dead_flops += sum(matmul_flops(s) for s in sub_jaxprs(e))
    return Liveness(
        equations=len(j.eqns),
        dead_equations=live_eqns.count(False),
        dead_matmuls=len(dead_dots),
        matmuls=len(dots),
        dead_matmul_flops=dead_flops,
        outputs=len(j.outvars),
        constant_outputs=constant,
    )


# Equations that call their one sub-program once, output for output: which of their results are
# used says which of the sub-program's are. Loops and branches do not map so simply (a loop's carry
# feeds its next step), so inside them every result counts as used.
_CALL_PRIMITIVES = frozenset({"jit", "pjit", "closed_call", "core_call", "remat", "checkpoint",
                              "custom_jvp_call", "custom_vjp_call", "custom_vjp_call_jaxpr"})


def live_callbacks(j: Any, used: list[bool] | None = None) -> list[Any]:
    """The host-callback equations the compiled program keeps: a callback with effects
    (``io_callback``, ``jax.debug.print``) always, a ``pure_callback`` only when its result reaches
    an output. XLA removes an unused ``pure_callback`` as dead code, so it never runs (jax-ml/jax#13762:
    ``_ = jax.pure_callback(...)`` in a jitted function is never called), though the traced program
    still shows it. ``used``: which of ``j``'s outputs are used (default: all)."""
    j = open_jaxpr(j)
    live = {v for k, v in enumerate(j.outvars) if _is_var(v) and (used is None or used[k])}
    found = []
    for e in reversed(j.eqns):
        outputs = [_is_var(v) and v in live for v in e.outvars]
        if not (getattr(e, "effects", None) or any(outputs)):
            continue
        live.update(v for v in e.invars if _is_var(v))
        if e.primitive.name in CALLBACK_PRIMITIVES:
            found.append(e)
        for inner in sub_jaxprs(e):
            mapped = e.primitive.name in _CALL_PRIMITIVES and len(inner.outvars) == len(outputs)
            found += live_callbacks(inner, outputs if mapped else None)
    return found[::-1]


def _is_var(v: Any) -> bool:
    # Literals carry a value; variables do not. Duck-typed so no private class is imported.
    return not hasattr(v, "val")


# -- repeated blocks ---------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class RepeatedBlock:
    """``size`` consecutive top-level equations repeated ``repeats`` times, from ``start``."""

    size: int
    repeats: int
    start: int
    covered: int
    primitives: dict[str, int]


def repeated_block(j: Any, *, min_repeats: int = 4, min_covered: int = 40, min_share: float = 0.25,
                   max_equations: int = 20_000, max_period: int = 2_000) -> RepeatedBlock | None:
    """The fundamental block of identical equations repeated back to back, if it dominates the program.

    Two equations are identical when primitive, parameters and input/output types match (the
    variables themselves differ from one repetition to the next). For each period p the longest
    run where equation i equals equation i + p gives the repetitions; the smallest period covering
    nearly as many equations as the best one is the loop body.
    """
    eqns = open_jaxpr(j).eqns[:max_equations]
    n = len(eqns)
    # A call of a jitted helper is one top-level equation carrying a whole program: weigh each
    # equation by the equations inside it, so 32 calls of a 20-equation helper count as 672.
    weights = np.fromiter((1 + sum(count_equations(s) for s in sub_jaxprs(e)) for e in eqns), dtype=np.int64, count=n)
    cumulative = np.concatenate(([0], np.cumsum(weights)))
    if cumulative[-1] < min_covered or n < min_repeats:
        return None
    ids: dict[Any, int] = {}
    seq = np.fromiter((ids.setdefault(_signature(e), len(ids)) for e in eqns), dtype=np.int64, count=n)
    found: list[tuple[int, int, int, int]] = []  # (period, run, start, weighted equations covered)
    for p in range(1, min(n // min_repeats, max_period) + 1):
        run, start = _longest_true_run(seq[p:] == seq[:-p])
        if run // p + 1 >= min_repeats:
            end = start + (run // p + 1) * p
            found.append((p, run, start, int(cumulative[end] - cumulative[start])))
    if not found:
        return None
    best = max(f[3] for f in found)
    if best < max(min_covered, min_share * cumulative[-1]):
        return None
    p, run, start, _ = next(f for f in found if f[3] >= 0.9 * best)
    repeats = run // p + 1
    body = collections.Counter(e.primitive.name for e in eqns[start:start + p])
    return RepeatedBlock(size=p, repeats=repeats, start=start, covered=repeats * p, primitives=dict(body.most_common()))


def _longest_true_run(mask: np.ndarray) -> tuple[int, int]:
    if not mask.any():
        return 0, 0
    edges = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    i = int(np.argmax(ends - starts))
    return int(ends[i] - starts[i]), int(starts[i])


# Parameters that say *where* (``x[i]`` in ``for x in xs`` is a slice at i): the same step at
# another position is still the same step.
_POSITION_PARAMS = frozenset({"start_indices", "limit_indices"})


def _signature(eqn: Any) -> tuple:
    params = tuple(sorted((k, _param_key(v)) for k, v in eqn.params.items() if k not in _POSITION_PARAMS))
    ins = tuple(str(getattr(v, "aval", v)) for v in eqn.invars)
    outs = tuple(str(v.aval) for v in eqn.outvars)
    return eqn.primitive.name, params, ins, outs


def _param_key(value: Any) -> Any:
    inner = open_jaxpr(value)
    if hasattr(inner, "eqns"):
        return ("jaxpr", len(inner.eqns), len(inner.invars), len(inner.outvars))
    if isinstance(value, (tuple, list)):
        return tuple(_param_key(v) for v in value)
    text = repr(value)
    return text if len(text) <= 200 else text[:200]


# -- where in the user's source ----------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class SourceLine:
    file: str
    line: int
    function: str

    def __str__(self) -> str:
        return f"{short_path(self.file)}:{self.line} ({self.function.rsplit('.', 1)[-1]})"


def user_line(eqn: Any) -> SourceLine | None:
    """The innermost frame of the user's code (not JAX, Flax, the standard library or levelbench)
    that created an equation."""
    try:
        frames = eqn.source_info.traceback.frames
    except AttributeError:
        return None
    for f in frames:
        if is_user_file(f.file_name):
            return SourceLine(f.file_name, f.line_num, f.function_name)
    return None


def common_user_line(eqns: Any) -> SourceLine | None:
    """The user source line that created most of ``eqns``."""
    lines = collections.Counter(line for e in eqns if (line := user_line(e)) is not None)
    return lines.most_common(1)[0][0] if lines else None


def is_user_file(path: str) -> bool:
    if not path or (path.startswith("<") and not path.startswith("<ipython")):
        return False
    path = os.path.abspath(path)
    return not any(path.startswith(d) for d in _library_dirs())


_LIBRARY_DIRS: tuple[str, ...] | None = None


def _library_dirs() -> tuple[str, ...]:
    global _LIBRARY_DIRS
    if _LIBRARY_DIRS is None:
        paths = sysconfig.get_paths()
        dirs = {paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"]}
        dirs.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # levelbench itself
        _LIBRARY_DIRS = tuple(os.path.abspath(d) + os.sep for d in dirs if d)
    return _LIBRARY_DIRS

