# source: https://github.com/jax-ml/jax/issues/200
# explain: mp_jit
# dynamic: LB202
# first-sight: 43b52af 2026-12-02 explain: found LB202; missed none; false none
# Runnable copy of 050_message_passing_loop_compile.py for levelbench.explain: the posted function
# jitted as the report describes, on 40 small graphs instead of 5000 (np is jax.numpy).

import jax
import jax.numpy as np


def identity(x):
    return x

def mp(params, As, Fs, nonlin=identity):
    """my hack for doing message passing on multiple graphs in one logical forward computation step."""
    outputs = []
    for a, f in zip(As, Fs):
        output = np.dot(a, f)
        output = np.dot(params['w'], output) + params['b']
        output = nonlin(output)
        outputs.append(output)
    return outputs


mp_jit = jax.jit(mp)


def mp_jit_args():
    key = jax.random.PRNGKey(0)
    params = {"w": jax.random.normal(key, (8, 8)), "b": np.zeros((8, 4))}
    As = [np.eye(8) * (i + 1) for i in range(40)]
    Fs = [jax.random.normal(jax.random.PRNGKey(i), (8, 4)) for i in range(40)]
    return (params, As, Fs)
