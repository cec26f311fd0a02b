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


_PACKAGES = ("levelbench", "numpy", "jax", "jaxlib", "flax", "torch", "scipy")
_ENV_VARS = (
    "XLA_FLAGS",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "OMP_WAIT_POLICY",
    "GOMP_SPINCOUNT",
    "OPENBLAS_THREAD_TIMEOUT",
    "KMP_BLOCKTIME",
    "MKL_NUM_THREADS",
    "JAX_PLATFORMS",
    "JAX_ENABLE_X64",
    "CUDA_VISIBLE_DEVICES",
)


def collect() -> dict[str, Any]:
    """The environment of this process now (static parts are computed once)."""
    env = dict(_static())
    env["env_vars"] = {k: os.environ[k] for k in _ENV_VARS if k in os.environ}
    try:
        env["affinity"] = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        env["affinity"] = None
    env["blas"] = _blas()
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


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("model name", "Model", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _blas() -> list[dict[str, Any]]:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return []
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
                if k in ("hostname",):
                    continue
                walk(x.get(k), y.get(k), f"{path}.{k}" if path else k)
        elif x != y:
            diffs.append(f"{path}: {x!r} -> {y!r}")

    walk(a, b, "")
    return diffs
