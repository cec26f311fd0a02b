"""The machine's practical peak FLOP/s, measured once with large NumPy (BLAS) GEMMs and cached.

The peak is what the installed BLAS actually achieves on all cores, not a datasheet figure: a
candidate claiming much more than that for its work cannot have done the work.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from typing import Any

import numpy as np

from .._values.errors import warn_user
from .._values.files import replace_file
from .._values.settings import cache_dir

CACHE_VERSION = 1


@dataclasses.dataclass(frozen=True)
class Peak:
    """Best GEMM rates measured on this machine, in FLOP/s."""

    float32_flops: float
    float64_flops: float
    measured_at: float
    key: str

    def for_dtype(self, dtype: Any) -> float:
        return self.float64_flops if np.dtype(str(dtype)).itemsize >= 8 else self.float32_flops

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _machine_key() -> str:
    from .environment import collect

    env = collect()
    parts = {
        "cpu": env["cpu"],
        "cpu_count": env["cpu_count"],
        "affinity": env["affinity"],
        "numpy": np.__version__,
        "blas": _numpy_blas(),
        "env": {k: v for k, v in env["env_vars"].items() if k.startswith(("OPENBLAS", "OMP", "MKL"))},
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _numpy_blas() -> list[Any]:
    """NumPy's own BLAS only: libraries other frameworks load must not change the key."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return []
    return sorted(
        (b.get("internal_api"), b.get("num_threads"), b.get("architecture"))
        for b in threadpool_info()
        if b.get("user_api") == "blas" and "numpy" in str(b.get("filepath", ""))
    )


def _gemm_rate(n: int, dtype: type, repeat: int) -> float:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    a @ b  # warm-up: thread pool start, page faults
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t0)
    return 2 * n**3 / best


def measure_peak(n32: int = 2048, n64: int = 1536, repeat: int = 3) -> Peak:
    """Measure now (about a second on 2 cores)."""
    return Peak(_gemm_rate(n32, np.float32, repeat), _gemm_rate(n64, np.float64, repeat), time.time(), _machine_key())


def machine_peak(refresh: bool = False) -> Peak:
    """The cached peak for this machine and BLAS set-up, measured on first use.

    Where the cache cannot be written (a read-only home, a full disk), the peak is measured once
    per process and kept in memory, with one warning saying why and how to keep it."""
    key = _machine_key()
    path = cache_dir() / f"peak-{key}.json"
    if not refresh:
        if key in _uncached:
            return _uncached[key]
        try:
            d = json.loads(path.read_text())
            if d.get("version") == CACHE_VERSION:
                return Peak(d["float32_flops"], d["float64_flops"], d["measured_at"], d["key"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # absent or unreadable: measure again
    peak = measure_peak()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, json.dumps({"version": CACHE_VERSION, **peak.to_dict()}))
        _uncached.pop(key, None)
    except OSError as error:
        if not _uncached:
            warn_user(f"levelbench could not cache the machine's peak FLOP/s in {path} "
                      f"({error.strerror or error}): it is measured again (about a second) in every "
                      "process; set LEVELBENCH_CACHE_DIR to a writable directory to keep it")
        _uncached[key] = peak
    return peak


# Peaks measured in this process that could not be cached, by machine key: measured once, warned once.
_uncached: dict[str, Peak] = {}
