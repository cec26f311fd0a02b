# source: https://github.com/jax-ml/jax/issues/1131
# title: Step length dependent compilation time of lax.scan.
# established-by: maintainer mattjj
# cause: lax.scan's compile-time partial evaluation ran a while_loop op by op, so compile time grew with the number of steps; fixed inside JAX by compiling that loop.
# static: LB106
# dynamic: n/a
# inferred: LB106 (the scan body itself unrolls a 2000-step Python loop under jit)
# lines: LB106:19

!pip install --upgrade -q https://storage.googleapis.com/jax-wheels/cuda$(echo $CUDA_VERSION | sed -e 's/\.//' -e 's/\..*//')/jaxlib-$(pip search jaxlib | grep -oP '[0-9\.]+' | head -n 1)-cp36-none-linux_x86_64.whl
!pip install --upgrade -q jax

import jax.numpy as np
from jax import lax
from jax import jit


def f(x, s):
  for i in range(2000):
    x = x + 1.0
  return x, np.array([0])

def g(x, steps):
  xs = lax.iota(np.int32, steps)
  return lax.scan(f, x, xs)[0]

q = jit(g, static_argnums=(1,))

for p in range(1, 14):
  x = 2 ** p
  
  time1 = time.clock()
  temp = q(np.array(2.0), x).block_until_ready()
  time2 = time.clock()
  temp = q(np.array(2.0), x).block_until_ready()
  time3 = time.clock()

  first_run_time = (time2 - time1)
  second_run_time = (time3 - time2)
  compile_time = first_run_time - second_run_time
  
  print('x = {}, compile time = {} (run times = {}, {})'.format(
      x, compile_time, first_run_time, second_run_time))
