"""The machine's practical peak FLOP/s: what the installed BLAS reaches, measured and cached.

The practical peak is what NumPy's GEMMs actually reach on the cores this process may use, not a
datasheet figure (that is `environment.theoretical_peak`, the physical bound LB303 uses). It is the
figure "% of peak" columns are shares of, so a low one (measured while the machine was busy) would
make every later share too high. Hence:

- it is measured in a process of its own, never beside other work of this process, over a few
  sizes and thread counts (the best of them);
- attempts repeat until the two best agree within `AGREEMENT` (at most `MAX_ATTEMPTS`): a loaded
  attempt is slower than a quiet one, so a first attempt that a second one beats by more than that
  is not the peak; an attempt whose threads did not get their cores (`MIN_CPU_SHARE`) never counts.
  If no two ever agree, nothing is cached and the caller is told;
- any later measurement above it raises it (`raise_peak`): the cache then holds that figure.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib
import json
import os
import subprocess
import sys
import time
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from .candidate import Candidate
from .._values.cores import usable_cores
from .._values.errors import warn_user
from .._values.files import replace_file
from .._values.settings import cache_dir
from .environment import collect, theoretical_peak

CACHE_VERSION = 2

AGREEMENT = 0.10
"""The two best attempts agree when the lower is within this fraction of the higher, for each dtype. On a
quiet 2-core VM (AMD EPYC, OpenBLAS), back-to-back attempts (each the best of 3 GEMMs per size) differed
by 0.3-6% (float32 209-223 GFLOP/s, float64 100-107); attempts while the machine was busy were 25-60%
lower (82 and 114 against 220; issue 30's demo cached 86.5 against 119-126 quiet). 10% keeps the
quiet spread in and the loaded attempts out."""

MIN_CPU_SHARE = 0.6
"""An attempt whose best GEMMs got less than this share of their threads' CPU time (process CPU time over
wall time x threads) ran on a busy machine: it never counts towards agreement. A BLAS's threads are busy
(or spinning) for the whole of a large GEMM, so with the cores to themselves the share is close to 1;
timed beside other work on the 2-core VM (load 5-7) it was 0.24-0.49, at 25-105 GFLOP/s float32 against
210-220 quiet, and two such attempts agreed with each other: agreement alone would cache a loaded figure."""

MAX_ATTEMPTS = 5
"""Attempts before giving up (about a second each on 2 cores)."""

DTYPES = ("float32", "float64")

Attempt = Callable[[], "dict[str, float]"]
"""One attempt: the best FLOP/s per dtype (``{"float32": ..., "float64": ...}``)."""


@dataclasses.dataclass(frozen=True)
class Peak:
    """Best GEMM rates measured on this machine, in FLOP/s.

    ``attempts`` holds each attempt's rates; ``agreed`` is False when no two attempts agreed (such a
    peak is never cached); ``raised_by`` says which later measurement raised it, if one did."""

    float32_flops: float
    float64_flops: float
    measured_at: float
    key: str
    attempts: tuple[dict[str, float], ...] = ()
    agreed: bool = True
    raised_by: str = ""

    def for_dtype(self, dtype: Any) -> float:
        return self.float64_flops if np.dtype(str(dtype)).itemsize >= 8 else self.float32_flops

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["attempts"] = list(self.attempts)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Peak":
        return cls(d["float32_flops"], d["float64_flops"], d["measured_at"], d["key"],
                   tuple(d.get("attempts", ())), d.get("agreed", True), d.get("raised_by", ""))


def _machine_key() -> str:
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


def _gemm_rate(n: int, dtype: type, repeat: int, threads: int) -> tuple[float, float]:
    """(the best FLOP/s of ``repeat`` GEMMs, the CPU share of that GEMM): the process's CPU time over
    wall time x ``threads``, about 1 when its threads had their cores to themselves."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    a @ b  # warm-up: thread pool start, page faults
    best, share = float("inf"), 1.0
    for _ in range(repeat):
        cpu, t0 = time.process_time(), time.perf_counter()
        a @ b
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu
        if wall < best:
            best, share = wall, cpu / (wall * threads)
    return 2 * n**3 / best, share


def thread_counts() -> list[int]:
    """The BLAS thread counts tried: every CPU the process may use, and one per physical core where
    hyperthreads make that fewer (two threads on one core's FMA units can be slower than one)."""

    logical = usable_cores()
    return sorted({logical, max(1, min(logical, theoretical_peak().cores))}, reverse=True)


def gemm_attempt(n32: int = 2048, n64: int = 1536, repeat: int = 3) -> dict[str, float]:
    """One attempt, here: the best rate per dtype over sizes n/2 and n and `thread_counts`, and
    ``cpu_share``, the lowest CPU share of the GEMMs that gave them (see `MIN_CPU_SHARE`)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        threadpool_limits = None
    best = dict.fromkeys(DTYPES, 0.0)
    shares = dict.fromkeys(DTYPES, 1.0)
    counts = thread_counts()
    for threads in counts if threadpool_limits else [None]:
        with threadpool_limits(threads, user_api="blas") if threads else _nothing():
            for dtype, n in (("float32", n32), ("float64", n64)):
                for size in (max(1, n // 2), n):
                    rate, share = _gemm_rate(size, getattr(np, dtype), repeat, threads or counts[0])
                    if rate > best[dtype]:
                        best[dtype], shares[dtype] = rate, share
    return {**best, "cpu_share": min(shares.values())}


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _two_best_agree(rates: list[float], tolerance: float) -> bool:
    second, best = sorted(rates)[-2:]
    return second >= (1 - tolerance) * best > 0


def settle(attempt: Attempt, key: str = "", tolerance: float = AGREEMENT,
           max_attempts: int = MAX_ATTEMPTS) -> Peak:
    """Run ``attempt`` until, for each dtype, the two best rates agree within ``tolerance`` (see
    `AGREEMENT`), at most ``max_attempts`` times. Attempts that report a ``cpu_share`` below
    `MIN_CPU_SHARE` (the machine was busy) do not count towards agreement.

    The peak is the best rate seen; where the best two never agreed it is still the best seen, with
    ``agreed=False`` (not to be cached)."""
    seen: list[dict[str, float]] = []
    while len(seen) < max_attempts:
        seen.append({d: float(r) for d, r in attempt().items() if d in DTYPES or d == "cpu_share"})
        quiet = [s for s in seen if s.get("cpu_share", 1.0) >= MIN_CPU_SHARE]
        if len(quiet) >= 2:
            if all(_two_best_agree([s[d] for s in quiet], tolerance) for d in DTYPES):
                return Peak(max(s["float32"] for s in seen), max(s["float64"] for s in seen),
                            time.time(), key, tuple(seen), True)
    return Peak(max(s["float32"] for s in seen), max(s["float64"] for s in seen), time.time(), key,
                tuple(seen), False)


def measure_peak(n32: int = 2048, n64: int = 1536, repeat: int = 3, in_process: bool = False) -> Peak:
    """Measure now, in a process of its own (a few seconds on 2 cores); ``in_process`` measures here."""
    key = _machine_key()
    if in_process:
        return settle(lambda: gemm_attempt(n32, n64, repeat), key)
    args = json.dumps({"n32": n32, "n64": n64, "repeat": repeat, "key": key})
    try:
        done = subprocess.run([sys.executable, "-m", "levelbench._measuring.peak", args], capture_output=True,
                              text=True, timeout=600, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        if done.returncode == 0:
            return Peak.from_dict(json.loads(done.stdout.strip().splitlines()[-1]))
        why = f"exit {done.returncode}: {(done.stderr.strip().splitlines() or [''])[-1]}"
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, IndexError) as error:
        why = str(error)
    warn_user(f"levelbench could not measure the machine's peak FLOP/s in a process of its own ({why}); "
              "measured in this one instead")
    return settle(lambda: gemm_attempt(n32, n64, repeat), key)


def _cache_path(key: str) -> Any:
    return cache_dir() / f"peak-{key}.json"


def cached_peak() -> Peak | None:
    """The peak cached (or kept in this process) for this machine, or None: measures nothing."""
    key = _machine_key()
    if key in _uncached:
        return _uncached[key]
    try:
        d = json.loads(_cache_path(key).read_text())
        if d.get("version") == CACHE_VERSION:
            return Peak.from_dict(d)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # absent or unreadable: measure again
    return None


def machine_peak(refresh: bool = False) -> Peak:
    """The cached practical peak for this machine and BLAS set-up, measured on first use.

    A measurement whose attempts never agreed is used in this process but not cached (with one
    warning). Where the cache cannot be written (a read-only home, a full disk), the peak is measured
    once per process and kept in memory, with one warning saying why and how to keep it."""
    if not refresh:
        known = cached_peak()
        if known is not None:
            return known
    with _measuring_alone():
        if not refresh:
            known = cached_peak()  # another levelbench process measured it while this one waited
            if known is not None:
                return known
        peak = measure_peak()
    if not peak.agreed:
        warn_user("levelbench's measurement of this machine's practical peak FLOP/s did not settle: "
                  f"{len(peak.attempts)} attempts gave " + ", ".join(f"{a['float32'] / 1e9:,.0f}" for a in peak.attempts)
                  + f" GFLOP/s float32, the best two never within {AGREEMENT:.0%} with their threads' CPU to "
                  "themselves (the machine is busy); the best is used now and nothing "
                  "is cached: it is measured again next time (`levelbench env --peak` on a quiet machine)")
        _uncached[peak.key] = peak
        return peak
    _store(peak)
    return peak


def environment_with_peak(frameworks: Iterable[str] = (), refresh: bool = False) -> dict[str, Any]:
    """The environment levelbench records with each result (`environment.collect`), with the practical peak
    under ``"practical_peak"``: the cached one (None if never measured), or measured again with ``refresh``.
    ``frameworks`` (``"jax"``, ``"torch"``) are imported first, so that their devices and settings are included.
    """
    for name in frameworks:
        importlib.import_module(name)
    practical = machine_peak(refresh=True) if refresh else cached_peak()
    env = collect()
    env["practical_peak"] = practical.to_dict() if practical else None
    return env


@contextlib.contextmanager
def _measuring_alone() -> Iterator[None]:
    """One levelbench process measures the peak at a time (an exclusive lock in the cache folder): two
    measuring at once would each see half the machine. Without a lock (no fcntl, an unwritable folder)
    the agreement of attempts is the only guard."""
    try:
        import fcntl
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / "peak.lock", "a")
    except (ImportError, OSError):
        yield
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:
            pass  # a file system without locks: measured anyway
        yield


def _store(peak: Peak) -> None:
    path = _cache_path(peak.key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, json.dumps({"version": CACHE_VERSION, **peak.to_dict()}))
        _uncached.pop(peak.key, None)
    except OSError as error:
        if not _uncached:
            warn_user(f"levelbench could not cache the machine's peak FLOP/s in {path} "
                      f"({error.strerror or error}): it is measured again (about a second) in every "
                      "process; set LEVELBENCH_CACHE_DIR to a writable directory to keep it")
        _uncached[peak.key] = peak


def raise_peak(rates: dict[str, float], source: str) -> Peak | None:
    """Raise the practical peak to ``rates`` (FLOP/s per dtype) where they exceed it: a measurement above
    the peak shows the machine reaches more. Returns the new peak (cached in place of the old), or None
    when nothing was raised or there is no peak to raise."""
    old = cached_peak()
    if old is None:
        return None
    new = {d: max(old.for_dtype(d), rates.get(d, 0.0)) for d in DTYPES}
    if all(new[d] <= old.for_dtype(d) for d in DTYPES):
        return None
    peak = dataclasses.replace(old, float32_flops=new["float32"], float64_flops=new["float64"],
                               measured_at=time.time(), raised_by=source)
    if old.agreed and old.key not in _uncached:
        _store(peak)
    else:
        _uncached[old.key] = peak
    return peak


GEMM_LANE = "(peak lane {dtype})"
"""The name of a comparison's GEMM lane for one dtype; never a candidate's (a candidate named so is refused)."""


def gemm_lane(n: int, dtype: str) -> Any:
    """The GEMM a comparison times beside its candidates (a builder, called in a worker of its own):
    a square NumPy matmul of size ``n`` whose FLOP/s in the same rounds is what "% of peak" is a share of."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    return Candidate(np.matmul, (a, b), flops=2.0 * n**3, group=GEMM_LANE.format(dtype=dtype),
                     note=f"NumPy GEMM n={n}, the peak in this run")


# Peaks measured in this process that could not be cached, by machine key: measured once, warned once.
_uncached: dict[str, Peak] = {}


if __name__ == "__main__":  # the process of its own `measure_peak` starts
    options = json.loads(sys.argv[1])
    found = settle(lambda: gemm_attempt(options["n32"], options["n64"], options["repeat"]), options["key"])
    print(json.dumps(found.to_dict()))
