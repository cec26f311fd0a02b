# case: real/014_random_init_loops.py
# form: script
# causes: LB114:21/34, LB102:21/34, LB103:21/34
# changed: `import time` added (missing as posted: NameError); 300 iterations instead of 1000000 in each loop
# note: the JAX intervals are the second and fourth (un-jitted jax.random calls one by one, last result not waited for); the NumPy intervals are correct. Each interval is one sample of a loop, so no LB104 (the loop is the repetition)

import time
import jax
import numpy as np
key = jax.random.PRNGKey(0)

start = time.time()
for i in range(300):
    a = np.random.randint(100, size=(100,))
end = time.time()
print("np's randint: ", end-start)

start = time.time()
for i in range(300):
    a = jax.random.randint(key, (100,), 0, 100)
end = time.time()
print("jnp's randint: ", end-start)

start = time.time()
for i in range(300):
    # a = np.random.randint(100, size=(100,))
    a = np.random.randn(100,)
end = time.time()
print("np's randn: ", end-start)

start = time.time()
for i in range(300):
    a = jax.random.normal(key, shape=(100,))
end = time.time()
print("jnp's normal: ", end-start)
