# source: https://docs.jax.dev/en/latest/benchmarking.html
# explain: f_jit
# dynamic: none
# Runnable copy of 036_faq_benchmark_correct.py for levelbench.explain: smallest sizes that keep the pattern.

import numpy as np
import jax


def f(x):  # function we're benchmarking (works in both NumPy & JAX)
    return x.T @ (x - x.mean(axis=0))


f_jit = jax.jit(f)


def f_jit_args():
    return (jax.device_put(np.ones((300, 300), dtype=np.float32)),)
