# source: https://github.com/jax-ml/jax/issues/7949
# title: Slow compilation when slicing
# established-by: maintainer jakevdp
# cause: The slow part is compilation itself: for jacrev of a slice of size N the HLO embeds a literal N x N matrix, which XLA is slow to compile (the maintainer's reading of the HLO); a cause the catalogue has no code for. The posted timing helper is sound: `jitting(f, *args)` blocks both calls, prints the first as the compile ('jit time') and the second as the cached run, so the compile is timed on purpose and nothing is timed unblocked; its clock is time.time(). Code: the first snippet.
# static: LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock, as elsewhere in the corpus; the thread did not discuss it)
# lines: LB105:26/29
# first-sight: 8417a81 2026-12-02 py: found LB105:26 LB105:29; missed none; false LB103:27 | notebook: found LB105:26 LB105:29; missed none; false LB103:27

import time

import jax.numpy as jnp
from jax import jacfwd, jacrev, jit


def f1(x):
    return x


def f2(x):
    return x[1:]


def jitting(f, *args):
    s = time.time()
    f(*args).block_until_ready()
    print(f"{f.__name__} jit time: {time.time() - s}")
    s = time.time()
    f(*args).block_until_ready()
    print(f"{f.__name__} cached time: {time.time() - s}")


x = jnp.ones([1000])

print("jit(f1)")
jitting(jit(f1), x)
print("jit(f2)")
jitting(jit(f2), x)

print("jit(jacrev(f1))")
jitting(jit(jacrev(f1)), x)
print("jit(jacrev(f2))")
jitting(jit(jacrev(f2)), x)

print("jit(jacfwd(f1))")
jitting(jit(jacfwd(f1)), x)
print("jit(jacfwd(f2))")
jitting(jit(jacfwd(f2)), x)
