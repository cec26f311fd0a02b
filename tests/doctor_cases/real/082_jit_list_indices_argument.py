# source: https://github.com/jax-ml/jax/issues/5684
# title: Slow jit with list argument
# established-by: maintainer jakevdp
# cause: The indices are a Python list of 3000 ints. The maintainer answered that JAX does not convert list inputs to arrays and that the index argument accepts very flexible inputs: given to jit, the list is a pytree whose 3000 ints are traced one by one as separate arguments (his later jax-ml/jax#7904: 'a list of indices will be treated as a pytree, with each index individually traced. This may be inefficient as the size of the list grows'), so the 'list jitting' figure, the first call of f_jit, is 9.4 s of tracing and compiling against 0.03 s with an array. Each figure is one time.time() sample of one first call, not waited for. jax.ops.index_add no longer exists in current JAX (x.at[idx].add(y)).
# static: LB103, LB104, LB105, LB102
# dynamic: n/a
# inferred: LB104 (each figure is one unwarmed sample of one call), LB105 (time.time() as the interval clock), LB102 (no result is waited for); the thread discussed the compile cost (LB103) only
# lines: LB103:33/45, LB104:27/33/40/45, LB105:26/32/39/44, LB102:27/33/40/45
# first-sight: 7299de2 2026-12-02 py: found LB105:26 LB102:27 LB104:27 LB105:32 LB102:33 LB103:33 LB104:33 LB105:39 LB102:40 LB104:40 LB105:44 LB102:45 LB104:45; missed none; false none | notebook: found LB105:26 LB102:27 LB104:27 LB105:32 LB102:33 LB103:33 LB104:33 LB105:39 LB102:40 LB104:40 LB105:44 LB102:45 LB104:45; missed none; false none

import time

import jax
import jax.numpy as jnp
from jax import jit


def f(x, indices, y):
    return jax.ops.index_add(x, (indices,), y)


x = jnp.ones(10000)
y = jnp.ones(3000)

indices = list(range(3000))
start = time.time()
f(x, indices, y)
print('list: ' + str(time.time() - start))


f_jit = jit(f)
start = time.time()
f_jit(x, indices, y)
print('list jitting: ' + str(time.time() - start))


indices = jnp.array(indices)

start = time.time()
f(x, indices, y)
print('array: ' + str(time.time() - start))

f_jit = jit(f)
start = time.time()
f_jit(x, indices, y)
print('array jitting: ' + str(time.time() - start))
