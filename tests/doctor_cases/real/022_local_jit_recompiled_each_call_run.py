# source: https://github.com/jax-ml/jax/issues/2251
# explain: pandemic_scan
# dynamic: LB210
# Runnable copy of 022_local_jit_recompiled_each_call.py for levelbench.explain: smallest sizes that keep the pattern.

import collections
import functools

import jax.numpy as np
from jax import jit, lax

# infect, InfectState, x0 and a are not shown in the issue; a minimal carry
# update with the same shapes stands in for them.
InfectState = collections.namedtuple("InfectState", ["x", "a"])
x0 = np.ones(8)
a = np.full(8, 0.1)


def infect(state, step):
    x = state.x + step * state.a * state.x
    return InfectState(x, state.a), x


def pandemic_scan(state, step=1, t=0, T=5):

    @functools.partial(jit, static_argnums=(1,2,3))
    def _pandemic_scan(state, step, t, T):
        return lax.scan(
            infect,
            InfectState(x0, a),
            np.full(T,step)
        )

    return _pandemic_scan(state, step, t, T)


def pandemic_scan_args():
    return (InfectState(x0, a),)
