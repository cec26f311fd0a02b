"""`Workload`: a named, parameterised set of candidates that build their own inputs from one seed.

Workloads are plain Python objects, so users define their own the same way::

    import numpy as np, levelbench
    from levelbench.workloads import Workload, Param

    def softmax_candidates(n: int, seed: int):
        x = np.random.default_rng(seed).standard_normal((n, n)).astype(np.float32)
        import jax, jax.numpy as jnp
        return {
            "numpy": levelbench.Candidate(lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True), (x,)),
            "jax": levelbench.Candidate(jax.jit(jax.nn.softmax), (jnp.asarray(x),)),
        }

    SOFTMAX = Workload("softmax", "row softmax", softmax_candidates,
                       params=[Param("n", 1000, int, "rows and columns")], baseline="numpy")

and run it with ``levelbench run --workload my_file.py:SOFTMAX --n 2000``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from .._measuring.candidate import Candidate


@dataclasses.dataclass(frozen=True)
class Param:
    """A workload parameter: ``--name VALUE`` on the command line, a keyword to ``build``."""

    name: str
    default: Any
    type: Callable[[str], Any] = int
    help: str = ""
    choices: tuple[Any, ...] | None = None
    min: float | None = None  # the valid range, checked before anything runs
    max: float | None = None

    def parse(self, text: str) -> Any:
        try:
            value = self.type(text)
        except (ValueError, TypeError, OverflowError):
            raise ValueError(f"--{self.name} expects {self.expected}, got {text!r}") from None
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"--{self.name} must be one of {', '.join(map(str, self.choices))}, got {text!r}")
        if isinstance(value, float) and value != value:  # NaN is in no range
            raise ValueError(f"--{self.name} expects {self.expected}, got {text!r}")
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise ValueError(f"--{self.name} expects {self.expected}, got {text!r}")
        return value

    @property
    def expected(self) -> str:
        kind = {int: "an integer", float: "a number", str: "text"}.get(self.type, getattr(self.type, "__name__", "a value"))
        low, high = (None if b is None else f"{b:,}" if float(b).is_integer() else f"{b:g}" for b in (self.min, self.max))
        if low is not None and high is not None:
            return f"{kind} from {low} to {high}"
        if low is not None:
            return f"{kind} of at least {low}"
        if high is not None:
            return f"{kind} of at most {high}"
        return kind


@dataclasses.dataclass(frozen=True)
class Skipped:
    """A candidate a workload chose not to run at these parameters, and why (shown in the table)."""

    reason: str


@dataclasses.dataclass(frozen=True)
class Workload:
    """A named computation with several candidate implementations.

    Attributes:
        name: used on the command line (``--workload NAME``) and in the store.
        description: one line.
        build: ``build(**params) -> {name: Candidate | Skipped}``; it creates its inputs from
            ``params["seed"]``. A `Skipped` entry names a candidate left out at these parameters.
        params: the parameters and their defaults (the defaults finish in about a minute on 2 cores).
        full: parameter values for ``--full`` (e.g. the seed question's exact sizes).
        baseline: the candidate ratios are relative to.
        compare_options: extra keyword arguments for `levelbench.compare` (e.g. ``rtol``).
        footprint: ``footprint(**params) -> bytes``, the memory the candidates' arrays need at
            ``params``: a run that would not fit in this machine's memory is refused before it starts.
    """

    name: str
    description: str
    build: Callable[..., dict[str, Candidate | Skipped]]
    params: Sequence[Param] = ()
    full: dict[str, Any] = dataclasses.field(default_factory=dict)
    baseline: str | None = None
    compare_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    footprint: Callable[..., float] | None = None

    def param(self, name: str) -> Param:
        for p in self.all_params:
            if p.name == name:
                return p
        raise KeyError(f"workload {self.name!r} has no parameter {name!r}; it has {[p.name for p in self.all_params]}")

    @property
    def all_params(self) -> list[Param]:
        names = {p.name for p in self.params}
        return list(self.params) + ([Param("seed", 0, int, "random seed for the inputs")] if "seed" not in names else [])

    def defaults(self, full: bool = False) -> dict[str, Any]:
        d = {p.name: p.default for p in self.all_params}
        if full:
            d.update(self.full)
        return d

    def candidates(self, **params: Any) -> dict[str, Candidate | Skipped]:
        unknown = set(params) - {p.name for p in self.all_params}
        if unknown:
            raise KeyError(f"workload {self.name!r} has no parameter(s) {sorted(unknown)}; "
                           f"it has {[p.name for p in self.all_params]}")
        return self.build(**{**self.defaults(), **params})
