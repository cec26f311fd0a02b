# source: https://github.com/jax-ml/jax/issues/1219
# title: Document async dispatch in the README
# established-by: answer by lumip
# cause: The loop timed only the launch of an asynchronously dispatched multiply, and the first iteration also paid for compiling it; the later numbers are dispatch cost, not the computation.
# static: LB102, LB103, LB105
# dynamic: n/a
# inferred: LB105 (time.time() used as the interval timer; the thread did not discuss it)
# lines: LB102:19, LB103:19, LB105:18

from jax import numpy, jit
import time

a = numpy.ones((1000000,)) * 3
b = numpy.ones((1000000,)) * 5
f = jit(numpy.multiply, [0, 1])

for _ in range(10):   
    start = time.time()
    f(a, b)
    print(time.time() - start)
