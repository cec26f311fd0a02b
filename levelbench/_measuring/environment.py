"""What a result depends on besides the code: versions, devices, threads, BLAS, flags.

Frameworks are described only if the process already imported them: recording the environment
never imports jax or torch by itself.
"""

from __future__ import annotations

import functools
import os
import platform
import sys
from importlib import metadata
from typing import Any

from .cpu_peak import TheoreticalPeak, peak_of

_PACKAGES = ("levelbench", "numpy", "jax", "jaxlib", "flax", "torch", "scipy")
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")
"""The environment variables that set BLAS and OpenMP thread counts."""
_ENV_VARS = (
    "XLA_FLAGS",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
    *THREAD_VARIABLES,
    "OMP_WAIT_POLICY",
    "GOMP_SPINCOUNT",
    "OPENBLAS_THREAD_TIMEOUT",
    "KMP_BLOCKTIME",
    "JAX_PLATFORMS",
    "JAX_ENABLE_X64",
    "CUDA_VISIBLE_DEVICES",
)
"""The environment variables recorded with every result: BLAS and XLA settings, thread counts, JAX's switches."""


VOLATILE = ("hostname", "load_average", "steal", "cpu_frequency.current_mhz", "imported.sha256",
            "theoretical_peak.clock_mhz", "theoretical_peak.flops", "theoretical_peak.unknown")
"""Keys that differ between any two moments or hosts (or imported files): recorded, but not a difference
worth naming. Without cpufreq the theoretical peak's clock is the ``cpu MHz`` /proc/cpuinfo reports, which
can be a current clock; its bound (``theoretical_peak.bound_flops``) does not move and is compared."""


def collect(load_at_start: list[float] | None = None, cpu_at_start: dict[str, int] | None = None) -> dict[str, Any]:
    """The environment of this process now (static parts are computed once).

    ``load_average`` holds the 1/5/15-minute load averages at ``start`` (``load_at_start``, taken with
    `load_average` before the work; absent if not given) and at ``end`` (now): a busy machine explains
    noisy samples. ``steal`` holds the CPU steal time since ``cpu_at_start`` (taken with `cpu_times`
    before the work; see `steal_record`), where the kernel reports it. ``cpu_frequency`` holds the
    governor and frequencies where Linux shows them.
    """
    env = dict(_static())
    env["load_average"] = {k: v for k, v in (("start", load_at_start), ("end", load_average())) if v}
    steal = steal_record(cpu_at_start)
    if steal:
        env["steal"] = steal
    env["env_vars"] = {k: os.environ[k] for k in _ENV_VARS if k in os.environ}
    try:
        env["affinity"] = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        env["affinity"] = None
    env["cpu_frequency"] = cpu_frequency(env["affinity"])
    env["theoretical_peak"] = _theoretical_peak(tuple(env["affinity"] or ()))
    env["blas"] = _blas() or []
    if "jax" in sys.modules:
        env["jax"] = _jax()
    if "torch" in sys.modules:
        env["torch"] = _torch()
    return env


@functools.lru_cache(maxsize=1)
def _static() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "packages": {p: v for p in _PACKAGES if (v := _version(p))},
        "hostname": platform.node(),
    }


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


CPUINFO = "/proc/cpuinfo"
"""Where Linux names the CPU; a parameter for the tests."""


def cpu_model() -> str:
    """The CPU's name: /proc/cpuinfo on Linux, ``sysctl machdep.cpu.brand_string`` on macOS."""
    try:
        with open(CPUINFO) as f:
            for line in f:
                if line.startswith(("model name", "Model", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    if sys.platform == "darwin":
        brand = _sysctl("machdep.cpu.brand_string")
        if brand:
            return brand
    return platform.processor() or platform.machine()


def _sysctl(name: str) -> str:
    """``sysctl -n NAME``, or "" where there is no sysctl, it fails or it hangs."""
    import subprocess  # only on macOS, once per process

    try:
        done = subprocess.run(["sysctl", "-n", name], capture_output=True, text=True, timeout=2)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def load_average() -> list[float] | None:
    """The 1, 5 and 15-minute load averages, or None where the system has none (Windows)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


PROC_STAT = "/proc/stat"
"""Where Linux counts the CPU time of every kind since boot, steal included; a parameter for the tests."""


def cpu_times(path: str | None = None) -> dict[str, int] | None:
    """The machine's CPU time since boot, in clock ticks, from the ``cpu`` line of ``/proc/stat``:
    ``total`` (user + nice + system + idle + iowait + irq + softirq + steal; guest time is already
    inside user and nice) and ``steal``. None where there is no such file (macOS, Windows) or the
    kernel reports no steal column (before Linux 2.6.11).

    Steal is time a virtual CPU was ready to run but the hypervisor ran another virtual machine:
    on a shared cloud host it slows the timed code and widens the spread of its samples.
    """
    try:
        with open(path or PROC_STAT) as f:
            for line in f:
                if line.startswith("cpu "):
                    fields = [int(x) for x in line.split()[1:]]
                    if len(fields) < 8:
                        return None
                    return {"total": sum(fields[:8]), "steal": fields[7]}
    except (OSError, ValueError):
        return None
    return None


def steal_share(start: dict[str, int] | None, end: dict[str, int] | None) -> float | None:
    """The share of the CPU time between two `cpu_times` readings that was stolen by other virtual
    machines, or None when either reading is missing or no time passed."""
    if not start or not end:
        return None
    total = end["total"] - start["total"]
    if total <= 0:
        return None
    return max(0.0, min(1.0, (end["steal"] - start["steal"]) / total))


def steal_record(cpu_at_start: dict[str, int] | None, path: str | None = None) -> dict[str, Any]:
    """``{"share": 0.12, "ticks": 30, "total_ticks": 250}``: the steal since ``cpu_at_start``, read now,
    for an environment record; ``{}`` where it cannot be known."""
    end = cpu_times(path)
    share = steal_share(cpu_at_start, end)
    if share is None or cpu_at_start is None or end is None:
        return {}
    return {"share": round(share, 4), "ticks": end["steal"] - cpu_at_start["steal"],
            "total_ticks": end["total"] - cpu_at_start["total"]}


CPUFREQ = "/sys/devices/system/cpu"
"""Where Linux shows each CPU's frequency scaling (``cpuN/cpufreq/``); a parameter for the tests."""


def cpu_frequency(cpus: list[int] | None = None, root: str | None = None) -> dict[str, Any]:
    """The frequency governor(s) and the current/min/max frequencies in MHz of ``cpus`` (default: all),
    read from ``root`` (default `CPUFREQ`); ``{}`` where they cannot be read (a VM, macOS, Windows).

    A governor other than ``performance`` lets the clock change under a benchmark; ``current_mhz``
    is the lowest and highest current frequency over the CPUs.
    """
    root = root or CPUFREQ
    if cpus is None:
        try:
            cpus = sorted(int(n[3:]) for n in os.listdir(root) if n.startswith("cpu") and n[3:].isdigit())
        except OSError:
            return {}
    governors: set[str] = set()
    current: list[float] = []
    lowest: list[float] = []
    highest: list[float] = []
    for cpu in cpus:
        folder = os.path.join(root, f"cpu{cpu}", "cpufreq")
        governor = _read(os.path.join(folder, "scaling_governor"))
        if governor:
            governors.add(governor)
        for name, into in (("scaling_cur_freq", current), ("cpuinfo_min_freq", lowest), ("cpuinfo_max_freq", highest)):
            value = _read(os.path.join(folder, name))
            if value.isdigit():
                into.append(int(value) / 1000)  # kHz
    out: dict[str, Any] = {}
    if governors:
        out["governor"] = ",".join(sorted(governors))
    if current:
        out["current_mhz"] = [min(current), max(current)]
    if lowest:
        out["min_mhz"] = min(lowest)
    if highest:
        out["max_mhz"] = max(highest)
    return out


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


@functools.lru_cache(maxsize=4)
def _theoretical_peak(affinity: tuple[int, ...]) -> dict[str, Any]:
    return theoretical_peak(list(affinity) or None).to_dict()


SVE_VECTOR_LENGTH = "/proc/sys/abi/sve_default_vector_length"
"""Where Linux shows the SVE vector length (bytes) new processes get; a parameter for the tests."""


def theoretical_peak(affinity: list[int] | None = None) -> TheoreticalPeak:
    """The CPU's theoretical peak FLOP/s (`cpu_peak`) for the CPUs in ``affinity`` (default: the ones this
    process may use), from `CPUINFO`, `CPUFREQ` and `SVE_VECTOR_LENGTH`."""
    if affinity is None:
        try:
            affinity = sorted(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            affinity = list(range(os.cpu_count() or 1))
    try:
        with open(CPUINFO) as f:
            cpuinfo = f.read()
    except OSError:
        cpuinfo = ""
    folder = os.path.join(CPUFREQ, f"cpu{affinity[0] if affinity else 0}", "cpufreq")
    vector = _read(SVE_VECTOR_LENGTH)
    return peak_of(cpuinfo, cpu_frequency(affinity), affinity, platform.machine(),
                   driver=_read(os.path.join(folder, "scaling_driver")),
                   boost=_read(os.path.join(CPUFREQ, "cpufreq", "boost")),
                   sve_vector_bytes=int(vector) if vector.isdigit() else 0)


def thread_settings() -> dict[str, Any]:
    """The BLAS thread pools loaded in this process now, as threadpoolctl sees them (``pools``, each with its
    ``num_threads``; ``read_by`` ``"threadpoolctl"``), or, without threadpoolctl, only the thread environment
    variables (``read_by`` ``"environment"``); ``env``: those variables as set."""
    env = {name: os.environ[name] for name in THREAD_VARIABLES if name in os.environ}
    pools = _blas()
    if pools is None:
        return {"pools": [], "env": env, "read_by": "environment"}
    return {"pools": pools, "env": env, "read_by": "threadpoolctl"}


def _blas() -> list[dict[str, Any]] | None:
    """The BLAS and OpenMP pools threadpoolctl sees; None without threadpoolctl."""
    try:
        # lazy: an optional package, read only when asked
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    import numpy  # noqa: F401  - a core dependency; loads its BLAS so threadpoolctl can see it

    keep = ("user_api", "internal_api", "num_threads", "version", "architecture", "threading_layer")
    return [{k: info.get(k) for k in keep if k in info} for info in threadpool_info()]


def _jax() -> dict[str, Any]:
    import jax  # already imported by the caller's code

    out: dict[str, Any] = {
        "backend": jax.default_backend(),
        "devices": [str(d) for d in jax.devices()],
        "enable_x64": bool(jax.config.jax_enable_x64),
        "default_matmul_precision": jax.config.jax_default_matmul_precision,
    }
    for flag in ("jax_disable_jit", "jax_debug_nans", "jax_log_compiles"):
        value = getattr(jax.config, flag, None)
        if value:
            out[flag] = value
    return out


def _torch() -> dict[str, Any]:
    import torch  # already imported by the caller's code

    out: dict[str, Any] = {
        "num_threads": torch.get_num_threads(),
        "num_interop_threads": torch.get_num_interop_threads(),
        "float32_matmul_precision": torch.get_float32_matmul_precision(),
        "cuda": torch.cuda.is_available(),
    }
    if out["cuda"]:
        out["cuda_devices"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return out


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Human-readable differences between two environments that can change timings."""
    diffs = []

    def walk(x: Any, y: Any, path: str) -> None:
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y)):
                key = f"{path}.{k}" if path else k
                if k == "hostname" or key in VOLATILE:
                    continue
                walk(x.get(k), y.get(k), key)
        elif x != y:
            diffs.append(f"{path}: {x!r} -> {y!r}")

    walk(a, b, "")
    return diffs
