"""Built-in workloads (the two seed questions) and the `Workload` type for your own."""

from __future__ import annotations

from ._base import Param as Param
from ._base import Skipped as Skipped
from ._base import Workload as Workload


def builtin() -> dict[str, Workload]:
    from .gru import GRU
    from .matmul import MATMUL

    return {w.name: w for w in (MATMUL, GRU)}


def load(spec: str) -> Workload:
    """A built-in workload by name, or ``path/to/file.py:NAME`` for a `Workload` object in a file."""
    known = builtin()
    if spec in known:
        return known[spec]
    if ":" in spec:
        return _from_file(*spec.rsplit(":", 1))
    raise LookupError(
        f"unknown workload {spec!r}: expected one of {', '.join(sorted(known))}, or FILE.py:NAME for your own"
    )


def _from_file(path: str, name: str) -> Workload:
    import importlib.util
    import os
    import sys

    if not os.path.isfile(path):
        raise LookupError(f"workload file {path!r} does not exist (expected FILE.py:NAME)")
    module_name = f"_levelbench_user_workload_{abs(hash(os.path.abspath(path)))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise LookupError(f"cannot import {path!r} as Python (expected FILE.py:NAME)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise LookupError(f"importing {path!r} failed: {type(e).__name__}: {e}") from None
    obj = getattr(module, name, None)
    if not isinstance(obj, Workload):
        found = [k for k, v in vars(module).items() if isinstance(v, Workload)]
        raise LookupError(f"{path!r} has no Workload named {name!r}; it has {found or 'none'}")
    return obj
