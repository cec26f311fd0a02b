"""XLA's alternatives for a program's CPU dots, each measured on the whole program in a worker of its own.

The kernel probe (LB262) says how XLA's dot compares with NumPy's and PyTorch's; what a user can
change without leaving JAX is how XLA compiles it. The installed jaxlib is asked which of these
it accepts (a compile of a tiny program with the option; jaxlib versions differ):

- the dot through Eigen instead of YNNPACK (``xla_cpu_experimental_ynn_fusion_type=""``);
- the dot through XNNPACK or oneDNN fusions (``xla_cpu_experimental_{xnn,onednn}_fusion_type``);
- ``precision=HIGHEST`` on every matmul (``jax.default_matmul_precision("highest")`` while lowering).

``preferred_element_type`` is not tried: on CPU a float32 dot accumulates in float32 already, and
for 16-bit inputs a wider result changes what the program returns.

The user's program is exported (``jax.export``, a fresh jit) and each alternative is compiled and
timed from it by `compare(..., isolate=True)`, every candidate in a worker process of its own, the
program as XLA compiles it by default the baseline, outputs checked to agree first. The default is
also timed a second time in another worker (`PLACEBO`): on a busy machine a worker's place in the
interleaving alone moves its time by several percent, so an alternative is kept as faster only
when its 95% CI is below both the default's and the placebo's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np
from .._measuring.candidate import Builder, Candidate
from .._measuring.compare import compare
from .._measuring.parity import ComparisonError
from .subject import fresh_jit

BUILDER = "levelbench._probing.xla_options:exported_program"
DEFAULT = "as compiled"
# The default program again, in a worker of its own: the noise floor (what a different worker and
# place in the interleaving alone change). An alternative must beat both.
PLACEBO = "as compiled, again"


@dataclasses.dataclass(frozen=True)
class Alternative:
    """One way to compile the program: compiler ``options``, or every matmul at ``precision``."""

    name: str
    code: str
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    precision: str | None = None


ALTERNATIVES = (
    Alternative("Eigen dot (YNNPACK off)", 'jax.jit(f).lower(*args).compile({"xla_cpu_experimental_ynn_fusion_type": ""})',
                {"xla_cpu_experimental_ynn_fusion_type": ""}),
    Alternative("XNNPACK dot", 'jax.jit(f).lower(*args).compile({"xla_cpu_experimental_ynn_fusion_type": "", '
                '"xla_cpu_experimental_xnn_fusion_type": "LIBRARY_FUSION_TYPE_DOT"})',
                {"xla_cpu_experimental_ynn_fusion_type": "",
                 "xla_cpu_experimental_xnn_fusion_type": "LIBRARY_FUSION_TYPE_DOT"}),
    Alternative("oneDNN dot", 'jax.jit(f).lower(*args).compile({"xla_cpu_experimental_ynn_fusion_type": "", '
                '"xla_cpu_experimental_onednn_fusion_type": "LIBRARY_FUSION_TYPE_DOT"})',
                {"xla_cpu_experimental_ynn_fusion_type": "",
                 "xla_cpu_experimental_onednn_fusion_type": "LIBRARY_FUSION_TYPE_DOT"}),
    Alternative("precision=HIGHEST", 'with jax.default_matmul_precision("highest"): ...', precision="highest"),
)


def offered(alternatives: tuple[Alternative, ...] = ALTERNATIVES) -> tuple[list[Alternative], dict[str, str]]:
    """The alternatives the installed jaxlib accepts, and why each other one is left out."""
    import jax
    import jax.numpy as jnp

    tiny = jax.jit(jnp.matmul).lower(jnp.ones((4, 4)), jnp.ones((4, 4)))
    ok, refused = [], {}
    for a in alternatives:
        if not a.options:
            ok.append(a)
            continue
        try:
            tiny.compile(dict(a.options))
        except Exception as e:  # this jaxlib has no such option or value
            refused[a.name] = f"not offered by jaxlib {jax.__version__}: {str(e).strip().splitlines()[0][:120]}"
            continue
        ok.append(a)
    return ok, refused


def write_program(fn: Callable[..., Any], args: tuple, kwargs: dict, folder: str,
                  alternatives: list[Alternative]) -> dict[str, dict[str, Any]]:
    """The program exported (once per precision) and its inputs saved under ``folder``: builder kwargs per name."""
    import jax
    from jax import export


    jitted, arrays = fresh_jit(fn, args, kwargs)
    inputs = os.path.join(folder, "inputs.npz")
    np.savez(inputs, *[np.asarray(jax.device_get(a)) for a in arrays])
    x64 = bool(jax.config.jax_enable_x64)
    paths: dict[str | None, str] = {}
    for precision in dict.fromkeys([None, *(a.precision for a in alternatives)]):
        with jax.default_matmul_precision(precision) if precision else contextlib.nullcontext():
            exported = export.export(jitted)(*arrays)
        # the vjp closure is not needed to run the program, and cannot be pickled
        exported = dataclasses.replace(exported, _get_vjp=None)
        path = os.path.join(folder, f"program-{precision or 'default'}.pickle")
        with open(path, "wb") as fh:
            pickle.dump(exported, fh)
        paths[precision] = path
    out = {DEFAULT: {"program": paths[None], "inputs": inputs, "options": {}, "x64": x64}}
    out[PLACEBO] = dict(out[DEFAULT])
    for a in alternatives:
        out[a.name] = {"program": paths[a.precision], "inputs": inputs, "options": dict(a.options), "x64": x64}
    return out


def exported_program(program: str, inputs: str, options: dict[str, Any], x64: bool) -> Any:
    """In a worker: the exported program compiled with ``options``, as a candidate over its saved inputs."""
    import jax  # only in its own worker

    if x64:
        jax.config.update("jax_enable_x64", True)  # this worker only, as the program was traced

    with open(program, "rb") as fh:
        exported = pickle.load(fh)
    with np.load(inputs) as saved:
        arrays = [jax.device_put(saved[f"arr_{i}"]) for i in range(len(saved.files))]
    compiled = jax.jit(exported.call).lower(*arrays).compile(dict(options) or None)
    return Candidate(compiled, tuple(arrays), note=f"the whole program compiled with {options or 'XLA defaults'}")


def measure(fn: Callable[..., Any], args: tuple, kwargs: dict, budget: float, timeout: float,
            alternatives: list[Alternative] | None = None) -> dict[str, Any]:
    """Every alternative (default: every `offered` one) against the program as compiled, each in its own
    worker, via compare.

    Returns ``{"measured": [{name, code, ratio, lower, upper, faster}], "changed": {...}, "refused": {...},
    "failed": {...}}``; ``ratio`` is the alternative's time over the default's (< 1: faster). An
    alternative whose outputs disagree with the default's is left out of the timing (``changed``).
    """


    refused: dict[str, str] = {}
    if alternatives is None:
        alternatives, refused = offered()
    changed: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="levelbench-xla-") as folder:
        kwargs_of = write_program(fn, args, kwargs, folder, alternatives)
        while True:
            try:  # strict: outputs are checked after the first calls, before anything is timed
                c = compare({name: Builder(BUILDER, kw) for name, kw in kwargs_of.items()}, baseline=DEFAULT,
                            isolate=True, strict=True, budget=budget, rel_ci=0.03, environment=False,
                            count_flops=False, peak=False, timeout=timeout)
                break
            except ComparisonError as e:
                text = " ".join(str(e).split())
                culprits = [n for n in kwargs_of if n not in (DEFAULT, PLACEBO) and f"{n} disagrees" in text]
                if not culprits:
                    raise
                for n in culprits:  # it changes the results: reported as such, never timed
                    changed[n] = text
                    del kwargs_of[n]
    alternatives = [a for a in alternatives if a.name not in changed]
    agree = {a.candidate: a.ok for a in c.agreements}
    placebo = c.ratio(PLACEBO) if PLACEBO in c.measurements else None
    measured = []
    for a in alternatives:
        if a.name not in c.measurements:
            continue
        r = c.ratio(a.name)
        beats_placebo = placebo is None or c.ratio(a.name, PLACEBO).upper < 1
        measured.append({"name": a.name, "code": a.code, "ratio": r.estimate, "lower": r.lower, "upper": r.upper,
                         "seconds": c.measurements[a.name].median, "agree": agree.get(a.name, True),
                         "faster": bool(r.upper < 1 and beats_placebo and agree.get(a.name, True))})
    return {"default_seconds": c.measurements[DEFAULT].median if DEFAULT in c.measurements else None,
            "changed": changed,
            "placebo": None if placebo is None else {"ratio": placebo.estimate, "lower": placebo.lower,
                                                     "upper": placebo.upper},
            "measured": measured, "refused": refused, "failed": dict(c.failed),
            "isolated": c.isolation is not None and c.isolation.mode == "workers"}
