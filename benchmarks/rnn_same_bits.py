"""Do two checkouts of levelbench compute the same bits with levelbench.nn's native GRU and LSTM?

A change to the kernels that only moves work or memory (a layout, a loop order) must leave every
output and gradient bit for bit as it was. For each checkout, a worker process (levelbench
imported from it, its kernel built in a cache of its own, as benchmarks/rnn_checkouts.py does)
runs every case, two layers, bidirectional, with an initial state, over hidden sizes that are and
are not multiples of 8 and 16 and over batch sizes that are and are not multiples of the tiles'
rows, on 1, 2 and 3 kernel threads, and saves the outputs, ``h_n`` (and ``c_n``) and the
gradients of a random linear loss with respect to every parameter, ``x`` and the initial states.
The two sets are compared bit for bit (float32 as uint32); exit status 1 if any array differs.

    python benchmarks/rnn_same_bits.py BEFORE_DIR AFTER_DIR
    python benchmarks/rnn_same_bits.py BEFORE_DIR AFTER_DIR --isa avx2   # both built for AVX2
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _rnn_candidates as shared  # noqa: E402  (beside this file)

# (seq, batch, features, hidden): ragged and whole unit blocks (8) and vectors (16), batches below,
# at and above the tiles' rows, and the seed's sizes at batch 64.
CASES = ((7, 3, 6, 8), (9, 5, 6, 13), (6, 7, 20, 21), (8, 4, 5, 32), (5, 6, 3, 37), (4, 9, 6, 48),
         (12, 64, 6, 200))
THREADS = (1, 2, 3)

# Runs in the worker, levelbench imported from the checkout on its path; argv: the .npz to write,
# then the cases and thread counts as Python literals.
WORKER = """
import ast, sys
import jax, jax.numpy as jnp, numpy as np
from levelbench.nn import GRU, LSTM, _gru, _lstm, _rnn_kernel
out_file, cases, threads = sys.argv[1], ast.literal_eval(sys.argv[2]), ast.literal_eval(sys.argv[3])
arrays = {}
for model, config, apply in (("gru", GRU, _gru._apply), ("lstm", LSTM, _lstm._apply)):
    for seq, batch, features, hidden in cases:
        layer = config(input_size=features, hidden_size=hidden, num_layers=2, bidirectional=True)
        params = layer.init(jax.random.key(hidden))
        rng = np.random.default_rng(seq * 1000 + batch)
        x = jnp.asarray(rng.standard_normal((seq, batch, features), dtype=np.float32))
        h0 = jnp.asarray(rng.standard_normal((4, batch, hidden), dtype=np.float32))
        state = h0 if model == "gru" else (h0, jnp.asarray(rng.standard_normal((4, batch, hidden), dtype=np.float32)))
        d_out = jnp.asarray(rng.standard_normal((seq, batch, 2 * hidden), dtype=np.float32))
        d_final = jnp.asarray(rng.standard_normal((4, batch, hidden), dtype=np.float32))
        for count in threads:
            kernel = _rnn_kernel.Kernel(native=True, threads=count)

            def loss(params, x, state):
                out, final = apply(layer, params, x, state, kernel)
                finals = final if isinstance(final, tuple) else (final,)
                return jnp.sum(out * d_out) + sum(jnp.sum(f * d_final) for f in finals), (out, finals)

            (_, (out, finals)), grads = jax.jit(jax.value_and_grad(loss, (0, 1, 2), has_aux=True))(params, x, state)
            name = f"{model} seq {seq} batch {batch} features {features} hidden {hidden} threads {count}"
            arrays[f"{name}: output"] = out
            for i, final in enumerate(finals):
                arrays[f"{name}: final state {i}"] = final
            for key, value in grads[0].items():
                arrays[f"{name}: d {key}"] = value
            arrays[f"{name}: d x"] = grads[1]
            for i, value in enumerate(jax.tree_util.tree_leaves(grads[2])):
                arrays[f"{name}: d initial state {i}"] = value
np.savez(out_file, **{key: np.asarray(value) for key, value in arrays.items()})
"""


def run(checkout: str, isa: str, out_file: str) -> None:
    """Runs the cases with levelbench imported from ``checkout``, saving them to ``out_file``."""
    cache = hashlib.sha256(os.path.abspath(checkout).encode()).hexdigest()[:12]
    folder = os.path.join(tempfile.gettempdir(), f"levelbench-rnn-checkouts-{cache}")
    env = shared.checkout_environment(checkout, LEVELBENCH_KERNEL_DIR=folder)
    if isa == "avx2":
        env.update(shared.avx2_build(folder + "-avx2"))
    done = subprocess.run([sys.executable, "-c", WORKER, out_file, repr(CASES), repr(THREADS)],
                          capture_output=True, text=True, env=env, cwd=checkout, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the worker for {checkout} was expected to save its arrays and exited {done.returncode} "
                         f"instead; the end of its stderr:\n{done.stderr[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the checkout to compare against (its repository root)")
    parser.add_argument("after", help="the checkout with the change")
    parser.add_argument("--isa", choices=("native", "avx2"), default="native",
                        help="the kernels built for this machine (default), or for AVX2 on an AVX-512 machine")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        saved = {}
        for side in ("before", "after"):
            saved[side] = os.path.join(folder, f"{side}.npz")
            run(getattr(args, side), args.isa, saved[side])
        before, after = np.load(saved["before"]), np.load(saved["after"])
        if sorted(before.files) != sorted(after.files):
            only_before, only_after = set(before.files) - set(after.files), set(after.files) - set(before.files)
            raise SystemExit(f"the two checkouts were expected to save the same arrays; only before: {only_before}, "
                             f"only after: {only_after}")
        differing = []
        for key in sorted(before.files):
            a, b = before[key], after[key]
            if a.shape != b.shape or a.dtype != b.dtype or not np.array_equal(a.view(np.uint32), b.view(np.uint32)):
                differing.append(key)
                print(f"differs: {key} ({int(np.sum(a != b)) if a.shape == b.shape else 'shape'} elements)")
        print(f"{len(before.files) - len(differing)} of {len(before.files)} arrays the same bit for bit "
              f"({args.isa} build; GRU and LSTM, {len(CASES)} shapes, threads {THREADS})")
        if differing:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
