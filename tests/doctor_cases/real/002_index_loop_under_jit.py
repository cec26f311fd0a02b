# source: https://github.com/jax-ml/jax/issues/4436
# title: Jax indexing code runs extremely slowly?
# established-by: answer by wrzadkow
# cause: The two nested Python loops are unrolled while tracing the jitted function into about 16,000 indexing operations, so the first call spends its time tracing and compiling; later calls are fast.
# static: LB106
# dynamic: LB202, LB221
# inferred: LB221 (foo returns the constant 0, so none of the indexing reaches an output; the thread did not mention it)
# lines: LB106:16/17

import jax
import jax.numpy as jnp
from jax import jit

@jit
def foo(a):
	for i in range(128):
		for j in range(128):
			s = a[0]
	return 0

 
a = jnp.zeros(128)
foo(a)
