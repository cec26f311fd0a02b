# case: real/001_async_dispatch_multiply_loop.py
# form: script
# causes: LB102:17, LB103:17
# changed: jit(numpy.multiply, [0, 1]) -> jit(numpy.multiply) (jit takes no positional static_argnums since jax 0.4; arrays cannot be static)
# note: one interval sampled 10 times (no LB104); its first sample contains the compilation (LB103), every sample returns before the multiply finishes (LB102)

from jax import numpy, jit
import time

a = numpy.ones((1000000,)) * 3
b = numpy.ones((1000000,)) * 5
f = jit(numpy.multiply)

for _ in range(10):   
    start = time.time()
    f(a, b)
    print(time.time() - start)
