# source: https://github.com/jax-ml/jax/issues/7434
# title: Invalid value (nan) encountered in broadcast_in_dim with logsumexp and scan
# established-by: maintainer hawkinsp
# cause: A spurious debug_nans error in grad of a logsumexp scan that no longer reproduces at JAX head; a library bug since fixed.
# static: LB113
# dynamic: LB291
# inferred: LB113 (`from jax.config import config` fails on jax 0.10.2); LB291 (jax_debug_nans is left on)
# lines: LB113:13

import jax.numpy as jnp
import jax
from jax import grad as jgrad
from jax.config import config
from jax.scipy.special import logsumexp

T = 1000

config.update("jax_enable_x64", True)
config.update("jax_debug_nans", True)

A = jnp.zeros((2, 2))

def fun(A):

    a_init = jnp.array([jnp.log(0.5), jnp.log(0.5)])

    def scan_fn_a(a_t_1, t):
        a_t =  logsumexp(jnp.stack([a_t_1, a_t_1], axis=1) + A, axis=0)
        return a_t, a_t

    _, alpha = jax.lax.scan(scan_fn_a, a_init, jnp.arange(1, T, 1))

    return jnp.mean(alpha)

grad_fun = jgrad(fun)
grad_A_val = grad_fun(A)
