# case: real/012_concatenate_unblocked_loop.py
# form: script
# causes: LB102:31, LB115:31, LB114:31, LB103:31
# changed: NN = 1000 instead of 10000
# note: the intervals are the two perf_counter pairs inside the loop; their closing reads are the `+= perf_counter() - t0` lines. The JAX interval: dispatch not waited for (LB102), float64 NumPy inputs copied to the device each call (LB115), an un-jitted jnp call repeated in a Python loop (LB114)

from time import perf_counter

import numpy as np
import jax.numpy as jnp

def f(x, y):
    return np.concatenate((x, y))

def g(x, y):
    return jnp.concatenate((x, y))

if __name__ == '__main__':
    NN = 1000
    x, y = np.ones(5), np.ones(6)

    time_f = 0
    time_g = 0
    for n in range(NN):
        t0 = perf_counter()
        _ = f(x, y)
        time_f += perf_counter() - t0

        t0 = perf_counter()
        _ = g(x, y)
        time_g += perf_counter() - t0

    print(f"Average time for numpy {time_f/NN/1e-6:.4f} us")
    print(f"Average time for jax {time_g/NN/1e-6:.4f} us")
