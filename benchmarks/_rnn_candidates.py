"""What benchmarks/gru.py and benchmarks/lstm.py share: the seed sizes, the torch, Flax and
levelbench.nn candidates and their builders (the same timed work for either recurrent layer, so the
two benchmarks measure their models the same way), the compile-time measurement and the report's
table and environment line.

Forward runs torch in ``inference_mode()`` on an ``eval()`` module; forward+backward takes the
gradient of ``mean(out**2)`` with respect to the parameters. Flax stacks ``layers`` of
``flax.linen.RNN(cell)`` with its own weights, jitted.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np

HERE = os.path.abspath(__file__)
SEQ, FEATURES, HIDDEN, LAYERS = 1000, 6, 200, 2  # the seed question's sizes
FLAX_CELLS = {"gru": "GRUCell", "lstm": "OptimizedLSTMCell"}  # flax.linen's cell for each model

def inputs(torch_layer: str, seq: int, batch: int, features: int, hidden: int, layers: int) -> tuple[Any, np.ndarray]:
    """``torch.nn.<torch_layer>`` seeded, and a (seq, batch, features) float32 input."""
    import torch

    torch.manual_seed(0)
    module = getattr(torch.nn, torch_layer)(features, hidden, num_layers=layers)
    x = np.random.default_rng(0).standard_normal((seq, batch, features)).astype(np.float32)
    return module, x


def torch_candidate(module: Any, x: np.ndarray, mode: str) -> Any:
    import torch

    import levelbench

    xt = torch.from_numpy(x)
    if mode == "forward":
        module.eval()

        def forward(x):
            with torch.inference_mode():
                return module(x)[0]

        return levelbench.Candidate(forward, (xt,), group="torch weights")

    def forward_backward(x):
        module.zero_grad(set_to_none=True)
        out, _ = module(x)
        loss = (out ** 2).mean()
        loss.backward()
        return loss.detach()

    return levelbench.Candidate(forward_backward, (xt,), group="torch weights")


def flax_candidate(cell: Callable[[], Any], x: np.ndarray, layers: int, mode: str) -> Any:
    """``layers`` of ``flax.linen.RNN(cell())`` on ``x``, jitted."""
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    import levelbench

    class Stack(nn.Module):
        @nn.compact
        def __call__(self, x):
            for _ in range(layers):
                x = nn.RNN(cell())(x)
            return x

    seq, batch, features = x.shape
    xj = jnp.asarray(x)
    xb = jnp.swapaxes(xj, 0, 1)  # flax.linen.RNN is batch-major
    model = Stack()
    params = model.init(jax.random.key(0), jnp.zeros((batch, seq, features)))
    if mode == "forward":
        return levelbench.Candidate(jax.jit(model.apply), (params, xb), inputs=(xj,), group="flax weights")
    step = jax.jit(jax.value_and_grad(lambda p, x: (model.apply(p, x) ** 2).mean()))
    return levelbench.Candidate(step, (params, xb), inputs=(xj,), group="flax weights",
                                checked_output=lambda out: out[0])


def levelbench_candidate(run: Callable[[Any, Any], Any], params: Any, x: np.ndarray, mode: str) -> Any:
    """levelbench.nn's layer on the torch module's weights, jitted: ``run(params, x)`` returns
    ``(output, states)``; forward+backward is one ``value_and_grad`` step of ``mean(output ** 2)``."""
    import jax
    import jax.numpy as jnp

    import levelbench

    xj = jnp.asarray(x)
    if mode == "forward":
        forward = jax.jit(lambda p, x: run(p, x)[0])
        return levelbench.Candidate(forward, (params, xj), inputs=(xj,), group="torch weights")
    step = jax.jit(jax.value_and_grad(lambda p, x: (run(p, x)[0] ** 2).mean()))
    return levelbench.Candidate(step, (params, xj), inputs=(xj,), group="torch weights",
                                checked_output=lambda out: out[0])


# -- builders: each runs in the worker process that times it; ``model`` is "gru" or "lstm" ----------
def torch_builder(model: str, seq: int, batch: int, mode: str) -> Any:
    """``torch.nn.GRU`` or ``torch.nn.LSTM`` at the seed sizes."""
    return torch_candidate(*inputs(model.upper(), seq, batch, FEATURES, HIDDEN, LAYERS), mode)


def flax_builder(model: str, seq: int, batch: int, mode: str) -> Any:
    """``flax.linen.RNN`` of the model's cell (`FLAX_CELLS`) stacked LAYERS deep (its own weights), jitted."""
    import flax.linen as nn

    x = inputs(model.upper(), seq, batch, FEATURES, HIDDEN, LAYERS)[1]
    return flax_candidate(lambda: getattr(nn, FLAX_CELLS[model])(HIDDEN), x, LAYERS, mode)


def levelbench_builder(model: str, seq: int, batch: int, mode: str, kernel: dict | None = None) -> Any:
    """levelbench.nn's layer with torch's weights; ``kernel`` picks the recurrence (`Kernel` fields)."""
    from levelbench.nn import _gru, _lstm, from_torch
    from levelbench.nn._rnn_kernel import Kernel

    module, x = inputs(model.upper(), seq, batch, FEATURES, HIDDEN, LAYERS)
    params, layer = from_torch(module)
    chosen = Kernel(**kernel) if kernel is not None else None
    apply = _gru._apply if model == "gru" else _lstm._apply
    return levelbench_candidate(lambda p, x: apply(layer, p, x, None, chosen), params, x, mode)


def builder(name: str, model: str, **spec: Any) -> Any:
    """The worker-side ``<name>_builder`` of this file for ``model``."""
    import levelbench

    return levelbench.Builder(f"{HERE}:{name}_builder", {"model": model, **spec})


def gemm_flops(model: str, seq: int, batch: int, mode: str) -> float:
    """Per layer and step, the input and recurrent projections to the gates (GRU 3, LSTM 4);
    forward+backward counts 3x the forward's."""
    gates = 3 if model == "gru" else 4
    h, f = HIDDEN, FEATURES
    per_step = sum(2 * batch * ((f if layer == 0 else h) + h) * gates * h for layer in range(LAYERS))
    return seq * per_step * (3 if mode == "train" else 1)


def print_rates(model: str, c: Any, seq: int, batch: int, mode: str, peak: float | None) -> None:
    """Each candidate's `gemm_flops` per second, and its share of the float32 ``peak`` where known."""
    for name, m in c.measurements.items():
        rate = gemm_flops(model, seq, batch, mode) / m.median
        print(f"  {name:26} {rate / 1e9:6.1f} GFLOP/s" + (f", {rate / peak:.0%} of float32 peak" if peak else ""))


def parse_arguments(parser: argparse.ArgumentParser, quick: str) -> argparse.Namespace:
    """``parser``'s options (the script's own) and those every RNN benchmark takes: ``--quick``
    (``quick`` is its help), ``--budget``, ``--batch`` and ``--seq``; ``batches`` and ``budget`` are
    filled in from ``--quick`` where not given."""
    parser.add_argument("--quick", action="store_true", help=quick)
    parser.add_argument("--budget", type=float, default=None, help="seconds of interleaved timing per comparison")
    parser.add_argument("--batch", type=int, nargs="*", default=None, help="batch sizes (default 8 64)")
    parser.add_argument("--seq", type=int, default=SEQ, help=f"sequence length (default {SEQ}, the seed's)")
    args = parser.parse_args()
    args.batches = args.batch or ([8] if args.quick else [8, 64])
    args.budget = args.budget or (10.0 if args.quick else 30.0)
    return args


def label(mode: str) -> str:
    return "forward+backward" if mode == "train" else mode


def frameworks(model: str, seq: int, batch: int, mode: str, budget: float) -> Any:
    """torch, Flax and levelbench.nn side by side, each built in its own process (``model``: "gru", "lstm")."""
    import levelbench

    spec = {"seq": seq, "batch": batch, "mode": mode}
    return levelbench.compare({
        f"torch.nn.{model.upper()}": builder("torch", model, **spec),
        "flax.linen.RNN": builder("flax", model, **spec),
        "levelbench": builder("levelbench", model, **spec),
    }, isolate=True, budget=budget, rtol=1e-4, title=f"{model.upper()} {label(mode)}, seq {seq}, batch {batch}")


def compile_seconds(model: str, seq: int, batch: int, repeats: int = 3) -> dict[str, float]:
    """Median seconds to lower and compile levelbench's and Flax's jitted functions of ``model``, with
    jax's caches cleared before every compile (jax otherwise returns the cached executable in ~1 ms)."""
    import jax

    seconds = {}
    for name, build in (("levelbench", levelbench_builder), ("flax.linen.RNN", flax_builder)):
        for mode in ("forward", "train"):
            c = build(model, seq, batch, mode)
            samples = []
            for _ in range(repeats):
                jax.clear_caches()
                start = time.perf_counter()
                c.fn.lower(*c.args).compile()
                samples.append(time.perf_counter() - start)
            seconds[f"{name} {label(mode)}"] = float(np.median(samples))
    return seconds


def print_compile_seconds(model: str, seq: int) -> None:
    """The table of `compile_seconds` at seq 25 and ``seq``, batch 8."""
    print("\ncompile time (lower + compile, median of 3, seconds), batch 8")
    by_seq = {n: compile_seconds(model, n, 8) for n in (25, seq)}
    print(f"  {'function':34} {'seq 25':>8} {'seq ' + str(seq):>9} {'ratio':>8}")
    for name in by_seq[25]:
        a, b = by_seq[25][name], by_seq[seq][name]
        print(f"  {name:34} {a:8.2f} {b:9.2f} {b / a:8.2f}")


def print_comparison(c: Any, references: list[str]) -> None:
    """A comparison's median times and its ratios (95% CI) to each of ``references``."""
    rounds = len(next(iter(c.rounds.values())))
    print(f"\n{c.title}: {rounds} interleaved rounds, median time and ratio (95% CI)")
    header = "".join(f"  {'/ ' + r:>26}" for r in references)
    print(f"  {'candidate':26} {'median':>10} {'IQR/med':>8}{header}")
    for name, m in c.measurements.items():
        cells = ""
        for ref in references:
            r = c.ratio(name, ref)
            cells += f"  {'1':>26}" if ref == name else f"  {r.estimate:8.3f}x ({r.lower:.3f}-{r.upper:.3f})    "
        spread = m.iqr / m.median
        print(f"  {name:26} {m.median * 1e3:8.1f}ms {spread:8.2f}{cells}{' noisy' if spread > 0.10 else ''}")
    for name, reason in c.failed.items():
        print(f"  {name}: failed: {reason}")


@dataclasses.dataclass(frozen=True)
class FirstTouch:
    """How fast this machine writes into memory: pages a process touches for the first time (each
    faulted in, zeroed and mapped by the kernel, or by a sandbox's) and pages already touched, in
    bytes per second; and the call's fresh memory priced at the first rate (`floor`)."""

    fresh: float
    touched: float
    megabytes: int

    def floor(self, nbytes: float) -> float:
        """Seconds that writing ``nbytes`` into fresh pages takes at least, at the fresh rate."""
        return nbytes / self.fresh

    def describe(self) -> str:
        return (f"first touch: {self.fresh / 1e9:.2f} GB/s into fresh pages ({4096 / self.fresh * 1e6:.1f} us per "
                f"4 KB), {self.touched / 1e9:.1f} GB/s into touched ones (NumPy, {self.megabytes} MB, best of 5)")


def first_touch(megabytes: int = 64, repeats: int = 5) -> FirstTouch:
    """`FirstTouch` measured with NumPy: ``np.add(x, 1)`` into a new ``megabytes`` array (NumPy hands
    arrays this large back to the OS when freed, so each is fresh pages) and into one already
    written (``out=``), the fastest of ``repeats`` each (other jobs only slow a write down, and a
    floor wants the rate the machine can reach); well under a second at 1 GB/s. NumPy advises the
    kernel to back large arrays with huge pages, as the native RNN kernels advise for their results
    (most of a call's fresh memory): where the kernel honours the advice (transparent huge pages
    "madvise" or "always") a fresh page costs one fault per 2 MB, where it does not (a sandbox
    such as gVisor) one per 4 KB. The advice is set on for the probe whatever it was, then restored."""
    core = getattr(np, "_core", None) or np.core  # the hugepage switch moved in NumPy 2
    set_hugepage = core.multiarray._set_madvise_hugepage
    n = megabytes * (1 << 20) // 4
    previous = set_hugepage(True)
    try:
        x = np.ones(n, np.float32)
        y = np.zeros(n, np.float32)
        y += 1.0  # every page of y touched before it is timed

        def best(write: Callable[[], Any]) -> float:
            seconds = []
            for _ in range(repeats):
                start = time.perf_counter()
                write()
                seconds.append(time.perf_counter() - start)
            return min(seconds)

        fresh = best(lambda: np.add(x, 1.0))
        touched = best(lambda: np.add(x, 1.0, out=y))
    finally:
        set_hugepage(previous)
    return FirstTouch(x.nbytes / fresh, x.nbytes / touched, megabytes)


def call_memory(model: str, seq: int, batch: int, mode: str) -> int:
    """Bytes of memory one call of levelbench's jitted function (`levelbench_builder`) writes that
    XLA allocates for it: its temporaries (what the kernels return into, kept for the backward,
    among them) and its outputs (``compiled.memory_analysis()``). XLA:CPU hands large ones back to
    the OS after each call, so each call writes them into fresh pages (benchmarks/rnn_memory.py
    counts the faults)."""
    c = levelbench_builder(model, seq, batch, mode)
    memory = c.fn.lower(*c.args).compile().memory_analysis()
    return int(memory.temp_size_in_bytes + memory.output_size_in_bytes)


def environment() -> str:
    """When and where a benchmark ran: versions, threads, CPUs and the load average."""
    import jax
    import torch

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{time.strftime('%Y-%m-%d %H:%M')}: jax {jax.__version__}, torch {torch.__version__} "
            f"({torch.get_num_threads()} threads), {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
            f"load average {load:.2f}")


def checkout_environment(checkout: str, **extra: str) -> dict[str, str]:
    """This process's environment for a worker that imports levelbench from ``checkout``: the checkout first on
    ``PYTHONPATH``, what was there kept after it (where the frameworks themselves come from a ``PYTHONPATH``
    folder, as on a machine whose JAX is installed outside site-packages), then ``extra``."""
    path = os.pathsep.join(p for p in (checkout, os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


def avx2_build(folder: str) -> dict[str, str]:
    """The environment that makes levelbench.nn build its kernels for AVX2 on an AVX-512 machine: a
    compiler wrapper in ``$CXX`` that appends ``-march=haswell -mno-avx512f`` to the build's
    ``-march=native`` (the last ``-march`` wins), and a kernel cache of its own in ``folder``. The
    wrapper is written only when it changes, so that its date (part of the kernel's cache key) stays."""
    import shutil

    compiler = shutil.which(os.environ.get("CXX") or "g++") or shutil.which("clang++")
    if compiler is None:
        raise SystemExit("--isa avx2 needs g++ or clang++ to build the kernels with; none was found")
    os.makedirs(folder, exist_ok=True)
    wrapper = os.path.join(folder, "cxx-avx2")
    text = f'#!/bin/sh\nexec "{compiler}" "$@" -march=haswell -mno-avx512f\n'
    if not os.path.exists(wrapper) or open(wrapper).read() != text:
        with open(wrapper, "w") as f:
            f.write(text)
        os.chmod(wrapper, 0o755)
    return {"CXX": wrapper, "LEVELBENCH_KERNEL_DIR": os.path.join(folder, "kernels")}
