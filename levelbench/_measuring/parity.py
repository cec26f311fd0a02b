"""Before timing: do the candidates take the same inputs and compute the same outputs?"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._results.comparison import Agreement
from .._values.pytree import leaves_with_paths
from .._frameworks import ArrayInfo, adapter_for_array


class ComparisonError(ValueError):
    """The candidates cannot be compared fairly (different inputs, or not the same computation)."""


@dataclasses.dataclass(frozen=True)
class ArrayLeaf:
    path: str
    info: ArrayInfo


def array_leaves(tree: Any) -> list[ArrayLeaf]:
    out = []
    for path, leaf in leaves_with_paths(tree):
        adapter = adapter_for_array(leaf)
        if adapter is not None:
            out.append(ArrayLeaf(path, adapter.describe(leaf)))
    return out


def _device_kind(device: str) -> str:
    return device.split(":")[0].split(",")[0].lower()


def mismatches_of_leaves(candidates: dict[str, list[ArrayLeaf]], baseline: str) -> list[str]:
    """Every way a candidate's array inputs differ from the baseline's, one sentence each.

    Array arguments are matched in order (the i-th array of one candidate against the i-th of
    the other), since frameworks nest arguments differently. The leaves come from `array_leaves`,
    in whatever process each candidate lives.
    """
    ref = candidates[baseline]
    problems = []
    for name, mine in candidates.items():
        if name == baseline:
            continue
        if len(mine) != len(ref):
            problems.append(f"{name}: takes {len(mine)} array argument(s), {baseline} takes {len(ref)}")
        for i, (a, b) in enumerate(zip(mine, ref)):
            where = f"argument {i}" + (f" ({a.path})" if a.path not in (f"[0][{i}]", "") else "")
            if a.info.shape != b.info.shape:
                problems.append(f"{name}: {where} has shape {a.info.shape}, {baseline} has {b.info.shape}")
            if a.info.dtype != b.info.dtype:
                problems.append(f"{name}: {where} has dtype {a.info.dtype}, {baseline} has {b.info.dtype}")
            if _device_kind(a.info.device) != _device_kind(b.info.device):
                problems.append(f"{name}: {where} is on {a.info.device}, {baseline}'s is on {b.info.device}")
    return problems


# Normwise tolerance: max |a - b| <= atol + rtol * max |reference|.
DEFAULT_RTOL = {1: 1e-1, 2: 1e-2, 4: 1e-4, 8: 1e-9}


def to_numpy_leaves(tree: Any) -> list[tuple[str, Any]]:
    out = []
    for path, leaf in leaves_with_paths(tree):
        adapter = adapter_for_array(leaf)
        if adapter is not None:
            out.append((path, np.asarray(adapter.to_numpy(leaf))))
        elif isinstance(leaf, (int, float, complex, np.number)):
            out.append((path, np.asarray(leaf)))
        else:
            out.append((path, leaf))
    return out


def compare_leaves(name: str, mine: Sequence[tuple[str, Any]], ref_name: str, theirs: Sequence[tuple[str, Any]],
                   rtol: float | None, atol: float) -> Agreement:
    """How far ``mine`` is from ``theirs``: outputs as `to_numpy_leaves` gives them, from any process.

    Leaves are matched by their path in the output (``['w']``, ``[0]``): outputs of different
    structure, or dicts with different keys, are different computations, whatever their values.
    NaN where the reference has NaN at the same place agrees (``equal_nan``), and so does an
    infinity of the same sign.
    """
    different = structure_difference(name, [p for p, _ in mine], ref_name, [p for p, _ in theirs])
    if different:
        return Agreement(name, ref_name, False, np.inf, np.inf, "", different)
    reference = dict(theirs)
    worst = Agreement(name, ref_name, True, 0.0, 0.0, "")
    for path, a in mine:
        b = reference[path]
        if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray):
            return Agreement(name, ref_name, False, np.inf, np.inf, path,
                             f"{name} output {path or ''} is {type(a).__name__}, not an array "
                             f"({ref_name}'s is {type(b).__name__})")
        if a.shape != b.shape:
            return Agreement(name, ref_name, False, np.inf, np.inf, path,
                             f"{name} output {path} has shape {a.shape}, {ref_name}'s has {b.shape}")
        if not (_numeric(a) and _numeric(b)):
            if a.dtype == b.dtype and np.array_equal(a, b):
                continue
            return Agreement(name, ref_name, False, np.inf, np.inf, path,
                             f"{name} output {path} ({a.dtype}) differs from {ref_name}'s ({b.dtype}); "
                             "non-numeric outputs must be equal")
        if a.size == 0:
            continue
        max_abs, idx, max_rel, scale = _distance(a, b)
        tol = atol + (rtol if rtol is not None else _rtol_for(a.dtype, b.dtype)) * scale
        ok = max_abs <= tol
        if max_abs >= worst.max_abs_error or not ok:
            worst = Agreement(name, ref_name, ok and worst.ok, max_abs, max_rel, f"{path}{list(map(int, idx))}",
                              f"tolerance {tol:.3g} (max |reference| {scale:.3g})")
    return worst


def structure_difference(name: str, mine: Sequence[str], ref_name: str, theirs: Sequence[str]) -> str:
    """How two outputs' structures differ, in words naming the keys (empty when they match)."""
    only_mine = [p for p in mine if p not in set(theirs)]
    only_theirs = [p for p in theirs if p not in set(mine)]
    if not only_mine and not only_theirs:
        return ""

    def listed(paths: list[str]) -> str:
        shown = ", ".join(p or "(the whole output)" for p in paths[:6])
        return shown + (f" and {len(paths) - 6} more" if len(paths) > 6 else "")

    parts = [f"{name} returns {len(mine)} output(s), {ref_name} returns {len(theirs)}"] if len(mine) != len(theirs) else []
    if only_mine:
        parts.append(f"only {name} has {listed(only_mine)}")
    if only_theirs:
        parts.append(f"only {ref_name} has {listed(only_theirs)}")
    return ("different output structure: " + "; ".join(parts)
            + ". Outputs with different keys or nesting are not the same computation: return the same "
              "structure from both, or pass Candidate(checked_output=...) to compare the part they share")


def _numeric(a: np.ndarray) -> bool:
    return a.dtype.kind in "biufc"


def _distance(a: np.ndarray, b: np.ndarray) -> tuple[float, tuple[int, ...], float, float]:
    """(max |a - b|, where, max relative error, max finite |b|): NaN against NaN and an infinity
    against the same infinity count as equal; any other non-finite difference is infinite."""
    wide = np.complex128 if "c" in (a.dtype.kind, b.dtype.kind) else np.float64
    a64, b64 = a.astype(wide), b.astype(wide)
    with np.errstate(all="ignore"):  # inf - inf and NaN arithmetic are expected here, not news
        same = (a64 == b64) | (np.isnan(a64) & np.isnan(b64))
        diff = np.where(same, 0.0, np.abs(a64 - b64))
        diff[np.isnan(diff)] = np.inf
        finite = np.abs(b64[np.isfinite(b64)])
        scale = float(finite.max()) if finite.size else 0.0
        rel = diff / np.maximum(np.abs(np.nan_to_num(b64)), np.finfo(np.float64).tiny)
    flat = int(np.argmax(diff))
    return float(diff.flat[flat]), np.unravel_index(flat, diff.shape), float(rel.max()), scale


def _rtol_for(*dtypes: Any) -> float:
    sizes = [np.dtype(d).itemsize if np.dtype(d).kind in "fc" else 8 for d in dtypes]
    return DEFAULT_RTOL.get(min(sizes), 1e-4)
