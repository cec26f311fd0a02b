# source: https://github.com/jax-ml/jax/issues/193
# title: array.ravel() takes orders of magnitude longer
# established-by: maintainer mattjj
# cause: NumPy's ravel is a no-copy view with tiny dispatch cost, while each un-jitted JAX operation paid tens of microseconds of XLA client dispatch overhead at the time.
# static: LB102
# dynamic: LB240
# inferred: LB102 (the JAX run of test_func is timed without waiting for its result)
# lines: LB102:23

def test_func():
    result = np.ones((10, 10)).ravel()

import numpy as np
print('Running with NumPy:')
%timeit test_func()

import autograd.numpy as np
print('\nRunning with NumPy (Autograd):')
%timeit test_func()

import jax.numpy as np
print('\nRunning with Jax:')
%timeit test_func()
