# source: https://github.com/jax-ml/jax/issues/8192
# title: vmapping O(n) algorithm produces O(n^2) runtime
# established-by: answer by the author patrick-kidger (his measurement across four sizes; the maintainers labelled the issue bug and performance)
# cause: `f` fills an array one element per `lax.scan` step, each step a `lax.cond` whose taken branch writes one element. Under `jax.vmap` the `cond` with a batched predicate becomes a `select` of both branches, so every step copies or rewrites the whole array, and the vmapped version grows with the square of the size while the plain one stays linear (the figures: 0.1 s at 10,000 to 1.8 s at 50,000 with vmap, under a millisecond without). The cost is the program's, not a measuring artefact: both jitted functions are called once before the clock starts. The timing itself still has faults the thread does not discuss: each figure is one `time.time()` sample of one call whose result is not waited for. Code: the script as posted, its printed figures kept as the comments they were.
# static: LB102, LB104, LB105
# dynamic: none
# inferred: LB102 (neither timed call is waited for), LB104 (one sample per size and function), LB105 (`time.time()` as the interval timer); the established cause, vmap turning a cond into a select, has no static or dynamic code in the catalogue
# lines: LB102:33/35, LB104:33/35, LB105:32/34
# first-sight: eec90bb 2026-12-03 py: found LB105:32 LB102:33 LB105:34 LB102:35; missed LB104:33/35; false LB111:29 | notebook: found LB105:32 LB102:33 LB105:34 LB102:35; missed LB104:33/35; false LB111:29

import jax
import jax.lax as lax
import jax.numpy as jnp
import time


def f(init_val):
    def _scan_fn(val, _):
        x, step = val
        new_x = lax.cond(step < x.size, lambda _x: _x.at[step].set(1), lambda _x: _x, x)
        return (new_x, step + 1), None
    return lax.scan(_scan_fn, init_val, xs=None, length=init_val[0].size)[0]


def timed(size):
    x = (jnp.zeros(size), jnp.array(0))
    vmap_x = (jnp.zeros([2, size]), jnp.array([0, 0]))
    _f = jax.jit(f)
    _vmap_f = jax.jit(jax.vmap(f))
    _f(x)
    _vmap_f(vmap_x)
    start = time.time()
    _f(x)
    mid = time.time()
    _vmap_f(vmap_x)
    end = time.time()
    print(f"Size: {size} No vmap: {mid - start} With vmap: {end - mid}")


timed(10000)
timed(30000)
timed(50000)
timed(70000)

# Size: 10000 No vmap: 0.00015544891357421875 With vmap: 0.10300779342651367
# Size: 30000 No vmap: 0.0001862049102783203 With vmap: 0.5727019309997559
# Size: 50000 No vmap: 0.00027298927307128906 With vmap: 1.7918751239776611
