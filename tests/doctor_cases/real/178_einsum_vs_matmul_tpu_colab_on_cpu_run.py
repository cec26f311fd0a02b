# source: https://github.com/jax-ml/jax/issues/1966
# explain: f, g
# dynamic: none
# first-sight: d3e47a7 2026-12-03 explain: found none; missed none; false none
# Runnable copy of 178_einsum_vs_matmul_tpu_colab_on_cpu.py for levelbench.explain: the two jitted
# functions as posted, with the imports the colab's earlier cell held, on x of 16 x 16 x 384 instead of
# 256 x 256 x 384 (w as posted).

import jax
import jax.numpy as jnp


@jax.jit
def f(x, w):
    return x @ w


@jax.jit
def g(x, w):
    return jnp.einsum("ABa,ab->ABb", x, w)


def _inputs():
    key = jax.random.PRNGKey(0)
    w = jax.random.uniform(key, (384, 1536))
    x = jax.random.uniform(key, (16, 16, 384))
    return x, w


def f_args():
    return _inputs()


def g_args():
    return _inputs()
