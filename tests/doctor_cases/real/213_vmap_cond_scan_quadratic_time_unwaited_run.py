# source: https://github.com/jax-ml/jax/issues/8192
# explain: _f, _vmap_f
# dynamic: none
# first-sight: eec90bb 2026-12-03 explain: found none; missed none; false none
# Runnable copy of 213_vmap_cond_scan_quadratic_time_unwaited.py for levelbench.explain: the posted `f`, jitted
# plain and vmapped as `timed` builds them, on the posted inputs at size 2,000 instead of 10,000-70,000.

import jax
import jax.lax as lax
import jax.numpy as jnp


def f(init_val):
    def _scan_fn(val, _):
        x, step = val
        new_x = lax.cond(step < x.size, lambda _x: _x.at[step].set(1), lambda _x: _x, x)
        return (new_x, step + 1), None
    return lax.scan(_scan_fn, init_val, xs=None, length=init_val[0].size)[0]


_f = jax.jit(f)
_vmap_f = jax.jit(jax.vmap(f))

SIZE = 2000


def _f_args():
    return ((jnp.zeros(SIZE), jnp.array(0)),)


def _vmap_f_args():
    return ((jnp.zeros([2, SIZE]), jnp.array([0, 0])),)
