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
    """How far ``mine`` is from ``theirs``: outputs as `to_numpy_leaves` gives them, from any process."""
    if len(mine) != len(theirs):
        return Agreement(name, ref_name, False, np.inf, np.inf, "",
                         f"{name} returns {len(mine)} output(s), {ref_name} returns {len(theirs)}")
    worst = Agreement(name, ref_name, True, 0.0, 0.0, "")
    for (path, a), (_, b) in zip(mine, theirs):
        if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray):
            return Agreement(name, ref_name, False, np.inf, np.inf, path,
                             f"{name} output {path or ''} is {type(a).__name__}, not an array "
                             f"({ref_name}'s is {type(b).__name__})")
        if a.shape != b.shape:
            return Agreement(name, ref_name, False, np.inf, np.inf, path,
                             f"{name} output {path} has shape {a.shape}, {ref_name}'s has {b.shape}")
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        diff = np.abs(a64 - b64)
        if diff.size == 0:
            continue
        idx = np.unravel_index(int(np.nanargmax(diff)) if np.isfinite(diff).any() else 0, diff.shape)
        max_abs = float(np.nanmax(diff)) if np.isfinite(diff).any() else np.inf
        if np.isnan(diff).any() and not (np.isnan(a64) == np.isnan(b64)).all():
            max_abs = np.inf
        scale = float(np.nanmax(np.abs(b64))) if b64.size else 0.0
        rel = diff / np.maximum(np.abs(b64), np.finfo(np.float64).tiny)
        tol = atol + (rtol if rtol is not None else _rtol_for(a.dtype, b.dtype)) * scale
        ok = max_abs <= tol
        if max_abs >= worst.max_abs_error or not ok:
            worst = Agreement(name, ref_name, ok and worst.ok, max_abs, float(np.nanmax(rel)),
                              f"{path}{list(map(int, idx))}",
                              f"tolerance {tol:.3g} (max |reference| {scale:.3g})")
    return worst


def _rtol_for(*dtypes: Any) -> float:
    sizes = [np.dtype(d).itemsize if np.dtype(d).kind in "fc" else 8 for d in dtypes]
    return DEFAULT_RTOL.get(min(sizes), 1e-4)
