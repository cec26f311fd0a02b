"""Every tunable of levelbench in one place: stopping rules, thresholds, sizes, environment variables.

Defaults are written once, here; `measure`, `compare`, the runner, the self-checks and the CLI read
them from these values. Each field says what it bounds and, where a number was chosen from a
measurement, where that measurement is.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class Measuring:
    """How hard `levelbench.measure` tries.

    Attributes:
        budget: seconds of sampling (after the first call and calibration) before giving up on
            ``rel_ci``; at least ``min_samples`` samples are always taken.
        target_sample_time: a sample lasts at least this long (timer resolution and overhead then
            stay far below 0.1%).
        rel_ci: stop once the 95% CI half-width of the median is within this fraction of it.
        min_samples / max_samples: bounds on the number of samples.
        confidence: of the median's interval.
        no_samples_after: give up when this many times ``min_samples`` samples in a row were
            discarded for recompiling.
        max_number: the most calls per sample ``number=`` (``-n``) may ask for: 1 s at 1 ns a call;
            more would make one sample outlast any budget.
    """

    budget: float = 5.0
    target_sample_time: float = 0.01
    rel_ci: float = 0.01
    min_samples: int = 5
    max_samples: int = 100_000
    confidence: float = 0.95
    no_samples_after: int = 10
    max_number: int = 10**9


@dataclasses.dataclass(frozen=True)
class Comparing:
    """How `levelbench.compare` interleaves candidates (docs/design/isolation.md has the measurements).

    Attributes:
        budget: seconds of interleaved timing before giving up on ``rel_ci``.
        rel_ci: stop once every ratio's 95% CI is within this fraction of it.
        min_rounds: rounds always taken.
        block_seconds: a candidate's turn in a round keeps about this much sampling...
        min_block_samples: ...and at least this many samples, so that the block's median stays put
            when its first kept samples still run slow after the wait (PyTorch's calls ran up to 25%
            slow for the first three calls after a 0.5 s pause here)...
        max_block_seconds: ...unless that would make the turn longer than this (then fewer, >= 1).
        max_block_samples: samples in one block at most (for very short samples).
        warmup_seconds: each block starts with this much sampling, at least one sample, that is
            discarded: after waiting for its turn a candidate's first 10 ms calls ran 2-15% slow,
            and a NumPy loop mapping 100 MB of fresh memory per call ran up to 2x slow for the
            whole first call after a 0.5 s pause (and at its steady time right after).
        loose_below: in one process, a back-to-back sample is taken for candidates whose samples
            are shorter than this (seconds); for longer ones it costs more than it is worth.
        distortion_shown: back-to-back ratios further than this from the quiet-gap ones are
            reported (LB305).
        implausible_margin: achieved FLOP/s above this multiple of the CPU's theoretical peak cannot
            be real work (LB303); the margin is for FLOP counts that count a little more than is done.
        different_work: FLOP counts differing by more than this fraction are different work (LB304).
        max_rounds_factor: give up after this many times ``min_rounds`` rounds when some candidate
            still has fewer than ``min_rounds`` kept rounds (every sample discarded).
        overrun_factor: rounds still short of ``min_rounds`` kept ones end at this many times the
            budget; at the budget already when a candidate has kept none (it compiles every call).
        gemm_lane_n: the size of the NumPy GEMM that a comparison in worker processes times in every
            round, per dtype (float32, float64), beside the candidates: "% of peak" is a share of what
            it reached in the same minutes. Large enough for the BLAS's blocked kernel to run at its
            rate, small enough for a sample of ~10 ms on 2 cores (docs/peak.md has the measurements).
        gemm_lane_seconds: the GEMM lane's turn in a round (at least 3 samples): short, so that it
            adds little to a round of 2-3 candidates.
    """

    budget: float = 10.0
    rel_ci: float = 0.02
    min_rounds: int = 5
    block_seconds: float = 0.15
    min_block_samples: int = 5
    max_block_seconds: float = 1.5
    max_block_samples: int = 30
    warmup_seconds: float = 0.03
    loose_below: float = 0.3
    distortion_shown: float = 0.05
    implausible_margin: float = 1.5
    different_work: float = 0.10
    max_rounds_factor: int = 50
    overrun_factor: float = 3.0
    gemm_lane_n: tuple[int, int] = (1024, 768)
    gemm_lane_seconds: float = 0.05


@dataclasses.dataclass(frozen=True)
class Quiet:
    """Waiting, between blocks, until no helper thread runs (`levelbench._measuring.threads`).

    Attributes:
        poll: seconds between two looks at the threads' states.
        confirm: looks in a row that must find no running helper thread.
        limit: seconds to wait at most; a thread that runs longer is reported.
        fallback_gap: seconds slept between blocks where thread states cannot be read (no /proc):
            longer than the spin of any pool measured (OpenBLAS's, ~0.1 s).
    """

    poll: float = 0.001
    confirm: int = 3
    limit: float = 1.0
    fallback_gap: float = 0.15


@dataclasses.dataclass(frozen=True)
class Checks:
    """Thresholds of the measurement self-checks (LB003-LB005).

    Attributes:
        noisy_iqr: IQR above this fraction of the median is a noisy measurement (LB003).
        dispatch_bound: a median within this multiple of the dispatch floor is overhead (LB004): the
            floor is then at least a fifth of each call; in benchmarks/dispatch_bound.py (jitted sin,
            sum, matmul from 16 to 4M elements) every such call grew by at most 1.74x when its work
            doubled (2x is pure work), and reductions and matmuls stayed nearly flat up to 10-20x.
        cold_start_ratio / cold_start_min: a first call over this multiple of the steady state,
            and at least this many seconds longer, is reported (LB005).
        steal_named: CPU steal time (another virtual machine on the host running on this VM's CPUs,
            read from /proc/stat) at or above this share of the CPU time during sampling is named
            as the likely cause in the noise note (LB003).
    """

    noisy_iqr: float = 0.10
    dispatch_bound: float = 5.0
    cold_start_ratio: float = 10.0
    cold_start_min: float = 1e-3
    steal_named: float = 0.02


@dataclasses.dataclass(frozen=True)
class Probing:
    """The light stopwatch `levelbench.explain`'s probes time calls with (a number's size, not its
    third digit).

    Attributes:
        sample_seconds: a sample repeats the call until it lasts this long.
        min_samples / max_samples: samples taken at least / at most.
        run_budget: seconds each JAX candidate's diagnosis may take in `levelbench run`.
        run_alternatives_budget: seconds `levelbench run` gives XLA's CPU dot alternatives where
            LB262 claims a kernel gap (each alternative is compiled and timed in a worker of its own).
        float32_agreement: LB230/LB231 compare the output with x64 off against the same call with
            x64 on; a normwise relative difference above this is more than float32 rounding (well-
            conditioned float32 work measured 2e-8 to 6e-6: sums of 1e6, a 512^2 matmul, softmax,
            logsumexp, a 64^2 solve; a 1e-8 finite difference differs by 1, an overflow by inf).
        float64_rerun_equations: programs larger than this are not compiled again with x64 on.
        paired_rounds: rounds of `paired_timings` (one sample of each call per round), where a
            decision compares two calls' times (LB240: as given against jitted): timed one after the
            other, a machine whose load moved between them moved the ratio.
    """

    sample_seconds: float = 0.002
    min_samples: int = 3
    max_samples: int = 15
    run_budget: float = 0.5
    run_alternatives_budget: float = 40.0
    float32_agreement: float = 1e-4
    float64_rerun_equations: int = 5_000
    paired_rounds: int = 15


@dataclasses.dataclass(frozen=True)
class Running:
    """`levelbench run`'s defaults.

    Attributes:
        budget: seconds of interleaved timing per workload.
        timeout: seconds before a workload's workers are stopped and it is reported as timed out.
        stop_grace: seconds a worker gets to exit when asked, before it is killed.
        finish_grace: after a timeout, seconds the candidates that still answer get to hand over what
            they measured (the timed-out one is stopped at once), so a partial comparison is kept.
    """

    budget: float = 10.0
    timeout: float = 1800.0
    stop_grace: float = 3.0
    finish_grace: float = 15.0


MEASURING = Measuring()
COMPARING = Comparing()
QUIET = Quiet()
CHECKS = Checks()
PROBING = Probing()
RUNNING = Running()


# -- environment variables: read here and nowhere else -------------------------------------------
ENVIRONMENT_VARIABLES = {
    "LEVELBENCH_DB": "the results database (default .levelbench/results.db in the working directory)",
    "LEVELBENCH_CACHE_DIR": "levelbench's cache: the machine's measured peak, built kernels (default: the "
                            "platform's user cache folder from platformdirs: $XDG_CACHE_HOME/levelbench or "
                            "~/.cache/levelbench on Linux, ~/Library/Caches/levelbench on macOS)",
    "LEVELBENCH_KERNEL_DIR": "where levelbench.nn's native kernels are built (default CACHE_DIR/kernels)",
    "LEVELBENCH_NATIVE": "0 turns levelbench.nn's native CPU kernel off (the GRU runs its XLA loops)",
    "LEVELBENCH_NATIVE_THREADS": "threads of levelbench.nn's native kernel (default: 2 where 2 cores are free)",
}

DEFAULT_DB = Path(".levelbench") / "results.db"


def db_path() -> Path:
    """``$LEVELBENCH_DB``, else ``.levelbench/results.db`` in the working directory."""
    return Path(os.environ.get("LEVELBENCH_DB") or DEFAULT_DB)


def cache_dir() -> Path:
    """``$LEVELBENCH_CACHE_DIR``, else the platform's user cache folder for levelbench (platformdirs:
    ``$XDG_CACHE_HOME/levelbench`` or ``~/.cache/levelbench`` on Linux, ``~/Library/Caches/levelbench``
    on macOS, ``%LOCALAPPDATA%\\levelbench\\Cache`` on Windows)."""
    explicit = os.environ.get("LEVELBENCH_CACHE_DIR")
    if explicit:
        return Path(explicit)
    import platformdirs  # lazy: only when something is cached

    return Path(platformdirs.user_cache_dir("levelbench", appauthor=False))


def kernel_dir() -> Path:
    """``$LEVELBENCH_KERNEL_DIR``, else ``cache_dir() / "kernels"``."""
    return Path(os.environ.get("LEVELBENCH_KERNEL_DIR") or cache_dir() / "kernels")


def native_kernels() -> bool:
    """False when ``LEVELBENCH_NATIVE`` says off (``0``, ``false``, ``no``, ``off``)."""
    return os.environ.get("LEVELBENCH_NATIVE", "1").strip().lower() not in ("0", "false", "no", "off")


def native_threads() -> str | None:
    """``LEVELBENCH_NATIVE_THREADS`` as given (validated where it is used), or None."""
    return os.environ.get("LEVELBENCH_NATIVE_THREADS")


def child_environment() -> dict[str, str]:
    """This process's environment for a child Python process of levelbench's own (a worker), with the folder
    that holds this copy of levelbench first on ``PYTHONPATH``: the child imports the same copy even when the
    caller put it on ``sys.path`` by hand (a test run, a notebook with a ``sys.path.insert``)."""
    root = str(Path(__file__).resolve().parents[2])  # levelbench/_values/settings.py, three levels up
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
