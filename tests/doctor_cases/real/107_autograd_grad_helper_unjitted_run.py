# source: https://github.com/jax-ml/jax/issues/14185
# explain: jax_grads
# dynamic: LB240
# first-sight: c3b020c 2026-12-02 explain: found none; missed LB240; false none
# Runnable copy of 107_autograd_grad_helper_unjitted.py for levelbench.explain: the posted timed
# statement as a function of the points, with the un-jitted jax.grad of the posted f; 100 points as
# a JAX array instead of 1000 NumPy floats.

import jax
import jax.numpy as jnp


def f(x): return x**2 + x


def jax_grads(xs):
    df = jax.grad(f)
    return [df(i) for i in xs]


def jax_grads_args():
    return (jnp.arange(0, 1, 0.01),)
