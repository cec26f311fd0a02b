# source: https://github.com/QuantEcon/lecture-jax/issues/34
# explain: generate_draws
# dynamic: LB210
# first-sight: 7299de2 2026-12-02 explain: found none; missed LB210; false none
# Runnable copy of 083_kesten_jit_inside_generate_draws.py for levelbench.explain: the lecture's
# generate_draws with smaller defaults (10,000 firms, 50 periods); the lecture times one call, and
# the maintainer asked for the call to be run twice, so the calls are two identical ones.

import jax
import jax.numpy as jnp
from jax import random


def generate_draws(M = 10_000,        # number of firms
                   μ_a = -0.5,        # location parameter for a
                   σ_a = 0.1,         # scale parameter for a
                   μ_b = 0.0,         # location parameter for b
                   σ_b = 0.5,         # scale parameter for b
                   μ_e = 0.0,         # location parameter for e
                   σ_e = 0.5,         # scale parameter for e
                   s_bar = 1.0,       # threshold
                   T = 50,            # sampling date
                   s_init = 1.0,      # initial condition for each firm
                   seed=123):

    key = random.PRNGKey(seed)
    keys = random.split(key, 3)

    # Initialize the array of s values with the initial value
    s = jnp.full((M, ), s_init)

    @jax.jit
    def update_s(s, keys):
        a_random = μ_a + σ_a * random.normal(keys[0], (M, ))
        b_random = μ_b + σ_b * random.normal(keys[1], (M, ))
        e_random = μ_e + σ_e * random.normal(keys[2], (M, ))

        exp_a = jnp.exp(a_random)
        exp_b = jnp.exp(b_random)
        exp_e = jnp.exp(e_random)

        s = jnp.where(s < s_bar,
                          exp_e,
                          exp_a * s + exp_b)

        return s, keys[-1]

    # Perform updates on s for time t
    for t in range(T):
        s, key = update_s(s, keys)
        keys = random.split(key, 3)

    return s


def generate_draws_args():
    return ()


def generate_draws_calls():
    return [generate_draws_args(), generate_draws_args()]
