"""levelbench.nn.GRU against torch.nn.GRU and flax.linen.RNN(GRUCell), side by side in one run.

Every candidate is timed round-robin (one sample of each per round, order rotated), so slow
drift on a shared machine hits all of them alike; each ratio is the median over rounds of
``candidate / reference`` within the round, with a bootstrap 95% CI. Forward runs torch in
``inference_mode()`` on an ``eval()`` module; forward+backward differentiates ``mean(out**2)``
with respect to the parameters in all three. Compile time is jax's lower+compile of the jitted
function at seq 25 and 1000.

    python benchmarks/gru.py              # seed sizes (batch 8) and batch 64, ~2-3 minutes
    python benchmarks/gru.py --quick      # fewer rounds, seed sizes only
    python benchmarks/gru.py --kernels    # levelbench's recurrence kernels against each other
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import time
from collections.abc import Callable

import numpy as np

SEQ, FEATURES, HIDDEN, LAYERS = 1000, 6, 200, 2


@dataclasses.dataclass(frozen=True)
class Timing:
    """Seconds per call of each candidate, one sample per round, rounds aligned across candidates."""

    samples: dict[str, list[float]]

    def median(self, name: str) -> float:
        return float(np.median(self.samples[name]))

    def ratio(self, name: str, reference: str, seed: int = 0) -> tuple[float, float, float]:
        """Median of per-round ratios and its bootstrap 95% CI."""
        ratios = np.asarray(self.samples[name]) / np.asarray(self.samples[reference])
        rng = np.random.default_rng(seed)
        boot = np.median(rng.choice(ratios, (2000, ratios.size)), axis=1)
        return float(np.median(ratios)), float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))

    def spread(self, name: str) -> float:
        q1, q3 = np.quantile(self.samples[name], [0.25, 0.75])
        return float((q3 - q1) / self.median(name))


def interleave(candidates: dict[str, Callable[[], object]], rounds: int, warmup: int = 2) -> Timing:
    import jax

    def run(fn: Callable[[], object]) -> float:
        start = time.perf_counter()
        jax.block_until_ready(fn())
        return time.perf_counter() - start

    names = list(candidates)
    for _ in range(warmup):
        for name in names:
            run(candidates[name])
    samples: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]  # rotate who goes first
        for name in order:
            samples[name].append(run(candidates[name]))
    return Timing(samples)


def _inputs(seq: int, batch: int):
    import jax.numpy as jnp
    import torch

    torch.manual_seed(0)
    module = torch.nn.GRU(FEATURES, HIDDEN, num_layers=LAYERS)
    x = np.random.default_rng(0).standard_normal((seq, batch, FEATURES)).astype(np.float32)
    return module, torch.from_numpy(x), jnp.asarray(x)


def torch_candidates(module, x) -> dict[str, Callable[[], object]]:
    import torch

    def forward():
        with torch.inference_mode():
            return module(x)[0]

    def forward_backward():
        module.zero_grad(set_to_none=True)
        out, _ = module(x)
        (out ** 2).mean().backward()
        return out

    module.eval()
    return {"forward": forward, "forward+backward": forward_backward}


def flax_functions(seq: int, batch: int):
    """``flax.linen.RNN(GRUCell)`` stacked LAYERS deep, jitted forward and gradient."""
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class Stack(nn.Module):
        @nn.compact
        def __call__(self, x):
            for _ in range(LAYERS):
                x = nn.RNN(nn.GRUCell(HIDDEN))(x)
            return x

    model = Stack()
    params = model.init(jax.random.key(0), jnp.zeros((batch, seq, FEATURES)))
    forward = jax.jit(model.apply)
    gradient = jax.jit(jax.grad(lambda p, x: (model.apply(p, x) ** 2).mean()))
    return params, forward, gradient


def levelbench_functions(module, kernel=None):
    import jax

    from levelbench.nn import _gru, from_torch

    params, gru = from_torch(module)
    forward = jax.jit(lambda p, x: _gru._apply(gru, p, x, None, kernel)[0])
    gradient = jax.jit(jax.grad(lambda p, x: (_gru._apply(gru, p, x, None, kernel)[0] ** 2).mean()))
    return params, forward, gradient


def candidates_at(seq: int, batch: int) -> dict[str, dict[str, Callable[[], object]]]:
    import jax.numpy as jnp

    module, xt, xj = _inputs(seq, batch)
    xb = jnp.swapaxes(xj, 0, 1)  # flax.linen.RNN is batch-major
    t = torch_candidates(module, xt)
    f_params, f_fwd, f_grad = flax_functions(seq, batch)
    l_params, l_fwd, l_grad = levelbench_functions(module)
    return {
        "forward": {"torch.nn.GRU": t["forward"], "flax.linen.RNN": lambda: f_fwd(f_params, xb),
                    "levelbench": lambda: l_fwd(l_params, xj)},
        "forward+backward": {"torch.nn.GRU": t["forward+backward"],
                             "flax.linen.RNN": lambda: f_grad(f_params, xb),
                             "levelbench": lambda: l_grad(l_params, xj)},
    }


def compile_seconds(seq: int, batch: int, repeats: int = 3) -> dict[str, float]:
    """Median seconds to lower and compile each jitted function, with jax's caches cleared
    before every compile (jax otherwise returns the cached executable in ~1 ms)."""
    import jax
    import jax.numpy as jnp

    module, _, xj = _inputs(seq, batch)
    xb = jnp.swapaxes(xj, 0, 1)
    f_params, f_fwd, f_grad = flax_functions(seq, batch)
    l_params, l_fwd, l_grad = levelbench_functions(module)
    seconds = {}
    for name, fn, args in [
        ("levelbench forward", l_fwd, (l_params, xj)), ("levelbench forward+backward", l_grad, (l_params, xj)),
        ("flax.linen.RNN forward", f_fwd, (f_params, xb)), ("flax.linen.RNN forward+backward", f_grad, (f_params, xb)),
    ]:
        samples = []
        for _ in range(repeats):
            jax.clear_caches()
            start = time.perf_counter()
            fn.lower(*args).compile()
            samples.append(time.perf_counter() - start)
        seconds[name] = float(np.median(samples))
    return seconds


def _print_ratios(title: str, timing: Timing, references: list[str]) -> None:
    print(f"\n{title}")
    header = "".join(f"  {'/ ' + r:>26}" for r in references)
    print(f"  {'candidate':26} {'median':>10} {'IQR/med':>8}{header}")
    for name in timing.samples:
        cells = ""
        for ref in references:
            if ref == name:
                cells += f"  {'1':>26}"
            else:
                est, lo, hi = timing.ratio(name, ref)
                cells += f"  {est:8.3f}x ({lo:.3f}-{hi:.3f})    "
        noisy = " noisy" if timing.spread(name) > 0.10 else ""
        print(f"  {name:26} {timing.median(name) * 1e3:8.1f}ms {timing.spread(name):8.2f}{cells}{noisy}")


def _environment() -> str:
    import flax
    import jax
    import torch

    from levelbench.nn import _gru_native

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"jax {jax.__version__}, flax {flax.__version__}, torch {torch.__version__} "
            f"({torch.get_num_threads()} threads), {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
            f"load average {load:.2f}\nlevelbench.nn.GRU float32 recurrence: {_gru_native.describe()}")


def compare_kernels(rounds: int, batch: int) -> None:
    from levelbench.nn._gru_kernel import Kernel

    module, _, xj = _inputs(SEQ, batch)
    variants = {
        "native, 2 threads": Kernel(native=True, threads=2),
        "native, 1 thread": Kernel(native=True, threads=1),
        "XLA loops": Kernel(),
        "XLA loops, per-gate GEMMs": Kernel(gemms=3),
        "XLA loops, unroll 4": Kernel(unroll=4),
        "XLA scan, autodiff": Kernel(custom_vjp=False),
    }
    for mode in ("forward", "forward+backward"):
        cands = {}
        for name, kernel in variants.items():
            params, fwd, grad = levelbench_functions(module, kernel)
            fn = fwd if mode == "forward" else grad
            cands[name] = (lambda f=fn, p=params: f(p, xj))
        timing = interleave(cands, rounds)
        _print_ratios(f"kernels, {mode}, batch {batch}", timing, [next(iter(cands))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, seed sizes only")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per comparison")
    parser.add_argument("--kernels", action="store_true", help="compare levelbench's kernels instead")
    parser.add_argument("--batch", type=int, nargs="*", default=None, help="batch sizes (default 8 64)")
    args = parser.parse_args()
    print(_environment())
    batches = args.batch or ([8] if args.quick else [8, 64])
    if args.kernels:
        for batch in batches:
            compare_kernels(args.rounds or (5 if args.quick else 11), batch)
        return

    for batch in batches:
        rounds = args.rounds or (5 if args.quick else (13 if batch <= 8 else 5))
        print(f"\nseq {SEQ}, batch {batch}, {FEATURES} features, hidden {HIDDEN}, {LAYERS} layers, "
              f"float32, {rounds} interleaved rounds: median time and ratio (95% CI)")
        for mode, cands in candidates_at(SEQ, batch).items():
            timing = interleave(cands, rounds)
            _print_ratios(mode, timing, ["torch.nn.GRU", "flax.linen.RNN"])

    print("\ncompile time (lower + compile, median of 3, seconds), batch 8")
    by_seq = {seq: compile_seconds(seq, 8) for seq in (25, SEQ)}
    print(f"  {'function':34} {'seq 25':>8} {'seq 1000':>9} {'1000/25':>8}")
    for name in by_seq[25]:
        a, b = by_seq[25][name], by_seq[SEQ][name]
        print(f"  {name:34} {a:8.2f} {b:9.2f} {b / a:8.2f}")
    print(f"\n{_environment()}")


if __name__ == "__main__":
    main()
