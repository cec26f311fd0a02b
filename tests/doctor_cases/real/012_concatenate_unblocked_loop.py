# source: https://github.com/jax-ml/jax/issues/4865
# title: jax.numpy.concatenate is much slower than np.concatenate
# established-by: maintainer mattjj
# cause: Because of asynchronous dispatch the loop did not time what it meant to; measured properly, the remaining gap is JAX's fixed per-call dispatch overhead on tiny arrays.
# static: LB102, LB115, LB114
# dynamic: LB230, LB240
# inferred: LB115 (float64 NumPy inputs are copied to the device inside the timing); LB230 (those float64 inputs are computed in float32); LB114 and LB240 (g runs un-jitted 10,000 times in the loop; measured here with timeit: g 87 us per call, jax.jit(g) 9.5 us)
# lines: LB102:33, LB115:33, LB114:27/33

from time import perf_counter

import numpy as np
import jax.numpy as jnp

def f(x, y):
    return np.concatenate((x, y))

def g(x, y):
    return jnp.concatenate((x, y))

if __name__ == '__main__':
    NN = 10000
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
