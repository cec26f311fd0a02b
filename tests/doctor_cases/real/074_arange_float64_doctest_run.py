# source: https://docs.jax.dev/en/latest/101/default_dtypes.html
# explain: arange_float64
# dynamic: LB231
# first-sight: 43b52af 2026-12-02 explain: found LB231; missed none; false none
# Runnable copy of 074_arange_float64_doctest.py for levelbench.explain: the float64 request in a
# function, without the doctest prompts.

import jax.numpy as jnp


def arange_float64(scale):
    return jnp.arange(5, dtype='float64') * scale


def arange_float64_args():
    return (jnp.float32(2.0),)
