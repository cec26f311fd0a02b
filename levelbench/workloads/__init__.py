"""Built-in workloads (the two seed questions, and an LSTM beside the GRU) and the `Workload` type
for your own."""

from __future__ import annotations

from ._base import Param as Param
from ._base import Skipped as Skipped
from ._base import Workload as Workload
from .._values.targets import load_target, split_target


def builtin() -> dict[str, Workload]:
    # A run of the user's own workloads, or planning one, must not load jax (JAX's gc callback swallows
    # a Ctrl-C that lands in it).
    # lazy: the built-in workloads import jax through levelbench.nn
    from . import gru, lstm, matmul

    return {w.name: w for w in (matmul.MATMUL, gru.GRU, lstm.LSTM)}


def load(spec: str) -> Workload:
    """A built-in workload by name, or ``path/to/file.py:NAME`` for a `Workload` object in a file."""
    known = builtin()
    if spec in known:
        return known[spec]
    if ":" not in spec:
        raise LookupError(
            f"unknown workload {spec!r}: expected one of {', '.join(sorted(known))}, or FILE.py:NAME for your own"
        )

    obj = load_target(spec)
    if not isinstance(obj, Workload):
        raise LookupError(f"{split_target(spec)[0]!r}: {split_target(spec)[1]!r} is a {type(obj).__name__}, "
                          "not a levelbench Workload (expected FILE.py:NAME naming a Workload(...))")
    return obj
