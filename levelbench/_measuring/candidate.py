"""What `compare` times: a `Candidate` (a call with its arguments) or a `Builder` that makes one.

A `Builder` names a function in the user's code that returns a candidate. It can be called in
another process, so candidates given as builders can be timed each in a worker process of its
own (``compare(..., isolate=True)``), away from the other frameworks' thread pools.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .._values.targets import absolute, load_target


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One implementation to compare.

    Attributes:
        fn, args, kwargs: what to call.
        flops: floating-point operations per call, if you know them better than the framework.
        group: candidates in the same group must compute the same output; each is checked
            against the group's first candidate. Different groups (e.g. ``x @ x.T`` vs ``x @ y``)
            are still timed side by side.
        note: shown beside the candidate (e.g. "the question's version").
        inputs: the data inputs whose shapes/dtypes/devices must match across candidates
            (default: ``args`` and ``kwargs``). Leave out what each framework holds in its own
            layout, e.g. a JAX model's parameters passed as an argument: ``inputs=(x,)``.
        checked_output: the part of the output compared with the reference (default: all of it),
            e.g. ``lambda out: out[:2]`` when the rest is framework-specific (parameter gradients).
    """

    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: dict = dataclasses.field(default_factory=dict)
    flops: float | None = None
    group: str = "default"
    note: str = ""
    inputs: tuple | None = None
    checked_output: Callable[[Any], Any] | None = None

    @property
    def checked_inputs(self) -> tuple:
        return (self.inputs, {}) if self.inputs is not None else (self.args, self.kwargs)

    def checked(self, result: Any) -> Any:
        """The part of ``result`` compared with the reference's."""
        return self.checked_output(result) if self.checked_output is not None else result

    @classmethod
    def coerce(cls, name: str, spec: Any) -> "Candidate":
        if isinstance(spec, Candidate):
            return spec
        if callable(spec):
            return cls(spec)
        if isinstance(spec, tuple) and spec and callable(spec[0]) and len(spec) <= 3:
            fn, args, kwargs = (*spec, (), {})[:3] if len(spec) == 1 else (*spec, {})[:3]
            if not isinstance(args, (tuple, list)):
                args = (args,)
            return cls(fn, tuple(args), dict(kwargs))
        raise TypeError(
            f"candidate {name!r}: expected a callable, (fn, args), (fn, args, kwargs), a Candidate, or a builder "
            f"('FILE.py:NAME' / 'module:function' returning one of those), got {type(spec).__name__}"
        )


@dataclasses.dataclass(frozen=True)
class Builder:
    """A function in your code that returns a candidate, called where the candidate is timed.

    ``target`` is ``"FILE.py:NAME"``, ``"FILE.py::NAME"`` or ``"package.module:NAME"``; the function
    is called with ``kwargs`` and returns what `compare` accepts as a candidate: ``(fn, args)``,
    ``(fn, args, kwargs)``, a callable or a `Candidate`. Given to ``compare(..., isolate=True)``,
    each builder runs in a worker process of its own, so no other framework's threads share it.

    Example (bench.py)::

        def numpy_dot(n=1000):
            x = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
            return np.dot, (x, x)

    and ``levelbench.compare({"numpy": "bench.py:numpy_dot", "jax": Builder("bench.py:jax_dot", {"n": 2000})},
    isolate=True)``.
    """

    target: str
    kwargs: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def portable_target(self) -> str:
        """The target with its file path made absolute, as a worker process (any directory) needs it."""
        return absolute(self.target)

    def build(self, name: str) -> Candidate:
        """Import the target and call it: the candidate, in this process."""
        made = load_target(self.target)
        if not callable(made):
            raise TypeError(f"candidate {name!r}: builder {self.target!r} is a {type(made).__name__}, not a function")
        return Candidate.coerce(name, made(**self.kwargs))


def coerce(name: str, spec: Any) -> Candidate | Builder:
    """A candidate as given to `compare`: a `Builder` for strings and builders, else a `Candidate`."""
    if isinstance(spec, Builder):
        return spec
    if isinstance(spec, str):
        return Builder(spec)
    return Candidate.coerce(name, spec)
