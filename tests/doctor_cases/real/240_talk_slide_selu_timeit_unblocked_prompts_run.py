# source: https://github.com/matthewfeickert/talk-scipy-2021/blob/fe4d32ae16598649c9c85e75d0c0735016347bed/talk.md
# explain: selu, selu_jit
# dynamic: LB240
# first-sight: f3b9bd0 2026-12-05 explain: found LB240; missed none; false none
# Runnable copy of 240_talk_slide_selu_timeit_unblocked_prompts.py for levelbench.explain: the slide's `selu`
# unjitted and jitted, without the IPython prompts, on 10,000 normal draws instead of 1,000,000.

import jax.numpy as jnp
from jax import jit, random


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


selu_jit = jit(selu)


def selu_args():
    return (random.normal(random.PRNGKey(0), (10000,)),)


def selu_jit_args():
    return (random.normal(random.PRNGKey(0), (10000,)),)
