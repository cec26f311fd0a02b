# case: real/013_ravel_dispatch_overhead.py
# form: ipython
# causes: LB102:16
# changed: the autograd cell dropped (autograd is not installed)
# note: only the JAX %timeit is labelled: test_func drops its JAX result, so the timing never waits for it (the corpus label). The eager dispatch it measures is the thread's subject, not a timing error (no LB114: no Python loop of operations)

def test_func():
    result = np.ones((10, 10)).ravel()

import numpy as np
print('Running with NumPy:')
%timeit test_func()

import jax.numpy as np
print('\nRunning with Jax:')
%timeit test_func()
