"""Memory per call and compile time of levelbench.nn's GRU and LSTM: what does not depend on load.

For each model, batch and mode (forward; forward+backward, "train"):
- XLA's temporary bytes per call (``compiled.memory_analysis()``): what each call allocates beyond
  its arguments and results;
- minor page faults per call (``resource.getrusage``), averaged over a few calls after warm-up:
  XLA:CPU hands large temporaries back to the OS after each call, so each call faults them in again
  (docs/design/gru.md); the system time this costs grows with them;
- trace + compile time at two sequence lengths: it should be flat in the length (a loop, not an
  unrolled program). Wall-clock: on a loaded machine read it as an upper bound.

    python benchmarks/rnn_memory.py [--calls 3] [--batches 8 64] [--models gru lstm]
"""

from __future__ import annotations

import argparse
import resource
import time

import jax
import jax.numpy as jnp

from levelbench.nn import GRU, LSTM, _rnn_native

SEQ, FEATURES, HIDDEN, LAYERS = 1000, 6, 200, 2


def _function(model, mode: str):
    def forward(params, x):
        return model.apply(params, x)[0]

    if mode == "forward":
        return jax.jit(forward)
    return jax.jit(jax.value_and_grad(lambda p, x: jnp.mean(forward(p, x) ** 2)))


def _faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def measure(kind: str, batch: int, mode: str, calls: int) -> dict:
    model = (GRU if kind == "gru" else LSTM)(FEATURES, HIDDEN, num_layers=LAYERS)
    params = model.init(jax.random.key(0))
    compile_s = {}
    for seq in (SEQ // 10, SEQ):
        x = jnp.ones((seq, batch, FEATURES), jnp.float32)
        start = time.perf_counter()
        compiled = _function(model, mode).lower(params, x).compile()
        compile_s[seq] = time.perf_counter() - start
    temp = compiled.memory_analysis().temp_size_in_bytes
    jax.block_until_ready(compiled(params, x))  # warm-up
    before, start = _faults(), time.process_time()
    for _ in range(calls):
        jax.block_until_ready(compiled(params, x))
    faults = (_faults() - before) / calls
    return {"kind": kind, "batch": batch, "mode": mode, "temp_MB": temp / 1e6, "faults": faults,
            "fault_MB": faults * resource.getpagesize() / 1e6, "compile_s": compile_s}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--batches", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--models", nargs="+", default=["gru", "lstm"], choices=["gru", "lstm"])
    args = parser.parse_args()
    print(f"# {_rnn_native.describe()}; seq {SEQ}, {FEATURES} features, hidden {HIDDEN}, {LAYERS} layers, "
          f"float32; page {resource.getpagesize()} B")
    print(f"{'model':5} {'batch':>5} {'mode':8} {'temp MB/call':>12} {'minor faults/call':>18} "
          f"{'(MB)':>8} {'compile s @' + str(SEQ // 10):>14} {'@' + str(SEQ):>6}")
    for kind in args.models:
        for batch in args.batches:
            for mode in ("forward", "train"):
                r = measure(kind, batch, mode, args.calls)
                c = r["compile_s"]
                print(f"{kind:5} {batch:5} {mode:8} {r['temp_MB']:12.1f} {r['faults']:18.0f} {r['fault_MB']:8.1f} "
                      f"{c[SEQ // 10]:14.2f} {c[SEQ]:6.2f}", flush=True)


if __name__ == "__main__":
    main()
