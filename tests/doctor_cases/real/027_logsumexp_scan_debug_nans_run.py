# source: https://github.com/jax-ml/jax/issues/7434
# explain: grad_fun
# dynamic: LB291
# Runnable copy of 027_logsumexp_scan_debug_nans.py for levelbench.explain: smallest sizes that keep the pattern.

import jax.numpy as jnp
import jax
from jax import grad as jgrad
from jax.scipy.special import logsumexp

T = 1000

# `from jax.config import config` no longer exists; jax.config is the same object.
jax.config.update("jax_enable_x64", True)
jax.config.update("jax_debug_nans", True)

A = jnp.zeros((2, 2))


def fun(A):

    a_init = jnp.array([jnp.log(0.5), jnp.log(0.5)])

    def scan_fn_a(a_t_1, t):
        a_t =  logsumexp(jnp.stack([a_t_1, a_t_1], axis=1) + A, axis=0)
        return a_t, a_t

    _, alpha = jax.lax.scan(scan_fn_a, a_init, jnp.arange(1, T, 1))

    return jnp.mean(alpha)


grad_fun = jgrad(fun)


def grad_fun_args():
    return (A,)
