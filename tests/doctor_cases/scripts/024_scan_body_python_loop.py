# case: real/024_scan_body_python_loop.py
# form: script
# causes: none
# changed: the two `!pip install` lines dropped; `import time` added (missing as posted); time.clock() -> time.perf_counter() (removed in Python 3.8); range(1, 6) instead of range(1, 14), 200 body steps instead of 2000
# note: not labelled LB103: the first interval (time1..time2) contains the compilation on purpose, the script subtracts the second run to print the compile time; both intervals are blocked. The thread's cause (compile time growing with the steps) is not a timing error

import time
import jax.numpy as np
from jax import lax
from jax import jit


def f(x, s):
  for i in range(200):
    x = x + 1.0
  return x, np.array([0])

def g(x, steps):
  xs = lax.iota(np.int32, steps)
  return lax.scan(f, x, xs)[0]

q = jit(g, static_argnums=(1,))

for p in range(1, 6):
  x = 2 ** p
  
  time1 = time.perf_counter()
  temp = q(np.array(2.0), x).block_until_ready()
  time2 = time.perf_counter()
  temp = q(np.array(2.0), x).block_until_ready()
  time3 = time.perf_counter()

  first_run_time = (time2 - time1)
  second_run_time = (time3 - time2)
  compile_time = first_run_time - second_run_time
  
  print('x = {}, compile time = {} (run times = {}, {})'.format(
      x, compile_time, first_run_time, second_run_time))
