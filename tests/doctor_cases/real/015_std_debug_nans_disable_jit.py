# source: https://github.com/jax-ml/jax/issues/22308
# title: JAX JIT Compilation Issue with jnp.std and Configuration Setting
# established-by: maintainer jakevdp
# cause: With both jax_debug_nans and jax_disable_jit on, jnp.std/jnp.var raised a spurious NaN error from an internal NaN constant; a library bug fixed in PR 22312.
# static: none
# dynamic: LB290, LB291
# inferred: LB290, LB291 (the flags are on in the code; the thread was about the spurious error, not their cost)
# lines: none

from jax import config
config.update("jax_debug_nans", True)
config.update('jax_disable_jit', True)

import jax.numpy as jnp
import jax
import pytest

x = jnp.arange(0, 0.5, step=0.1)

@jax.jit
def f(x):
    z = jnp.std(x)
    return z

def test_f():
    f(x)

test_f()
