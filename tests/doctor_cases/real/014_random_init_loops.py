# source: https://github.com/jax-ml/jax/issues/2456
# title: Initialising arrays using jax.random takes significantly longer than its numpy equivalent np.random.
# established-by: maintainer jakevdp
# cause: A million un-jitted jax.random calls in a Python loop measure per-call dispatch overhead (and the timing does not wait for results); JAX pays off when work is batched or jitted.
# static: LB114, LB102, LB105
# dynamic: LB240
# inferred: LB102 (the loops' last JAX results are not waited for); LB105 (time.time())
# lines: LB114:21/34, LB102:22/35, LB105:14/20/26/33

import jax
import numpy as np
key = jax.random.PRNGKey(0)

start = time.time()
for i in range(1000000):
    a = np.random.randint(100, size=(100,))
end = time.time()
print("np's randint: ", end-start)

start = time.time()
for i in range(1000000):
    a = jax.random.randint(key, (100,), 0, 100)
end = time.time()
print("jnp's randint: ", end-start)

start = time.time()
for i in range(1000000):
    # a = np.random.randint(100, size=(100,))
    a = np.random.randn(100,)
end = time.time()
print("np's randn: ", end-start)

start = time.time()
for i in range(1000000):
    a = jax.random.normal(key, shape=(100,))
end = time.time()
print("jnp's normal: ", end-start)
