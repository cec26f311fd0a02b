"""What benchmarks/gru.py and benchmarks/lstm.py share: the torch and Flax candidates (the same timed
work for either recurrent layer, so the two benchmarks measure their models the same way), the
compile-time measurement and the report's table and environment line.

Forward runs torch in ``inference_mode()`` on an ``eval()`` module; forward+backward takes the
gradient of ``mean(out**2)`` with respect to the parameters. Flax stacks ``layers`` of
``flax.linen.RNN(cell)`` with its own weights, jitted.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np


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


def label(mode: str) -> str:
    return "forward+backward" if mode == "train" else mode


def frameworks(script: str, model: str, seq: int, batch: int, mode: str, budget: float) -> Any:
    """torch, Flax and levelbench.nn side by side, each built in its own process by ``script``'s
    ``torch_<model>``, ``flax_<model>`` and ``levelbench_<model>`` (``model``: "gru", "lstm")."""
    import levelbench

    spec = {"seq": seq, "batch": batch, "mode": mode}
    return levelbench.compare({
        f"torch.nn.{model.upper()}": levelbench.Builder(f"{script}:torch_{model}", spec),
        "flax.linen.RNN": levelbench.Builder(f"{script}:flax_{model}", spec),
        "levelbench": levelbench.Builder(f"{script}:levelbench_{model}", spec),
    }, isolate=True, budget=budget, rtol=1e-4, title=f"{model.upper()} {label(mode)}, seq {seq}, batch {batch}")


def compile_seconds(builders: list[tuple[str, Callable[[int, int, str], Any], str]], seq: int, batch: int,
                    repeats: int = 3) -> dict[str, float]:
    """Median seconds to lower and compile each ``(name, build, mode)``'s jitted function, with jax's
    caches cleared before every compile (jax otherwise returns the cached executable in ~1 ms)."""
    import jax

    seconds = {}
    for name, build, mode in builders:
        c = build(seq, batch, mode)
        samples = []
        for _ in range(repeats):
            jax.clear_caches()
            start = time.perf_counter()
            c.fn.lower(*c.args).compile()
            samples.append(time.perf_counter() - start)
        seconds[name] = float(np.median(samples))
    return seconds


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


def environment() -> str:
    """When and where a benchmark ran: versions, threads, CPUs and the load average."""
    import jax
    import torch

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{time.strftime('%Y-%m-%d %H:%M')}: jax {jax.__version__}, torch {torch.__version__} "
            f"({torch.get_num_threads()} threads), {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
            f"load average {load:.2f}")


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
