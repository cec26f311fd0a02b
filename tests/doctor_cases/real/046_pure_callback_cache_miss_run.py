# source: https://github.com/jax-ml/jax/issues/31319
# explain: f
# dynamic: LB251
# Runnable copy of 046_pure_callback_cache_miss.py for levelbench.explain: the input is the one of the
# fix's regression test (jax-ml/jax#31341), jnp.arange(5.0).

import jax
import jax.numpy as jnp
import numpy as np


def f_host(x):
    # call a numpy (not jax.numpy) operation:
    return np.sin(x).astype(x.dtype)


@jax.jit
def f(x):
    result_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(f_host, result_shape, x, vmap_method="sequential")


def f_args():
    return (jnp.arange(5.0),)
