# source: https://github.com/jax-ml/jax/issues/9694
# title: Determinant Operation is slower on A100 than a V100
# established-by: maintainer hawkinsp (reproduced the measurement: 'I also see that slogdet is a bit slower on A100 than V100', and traced it to the LU decomposition it calls)
# cause: Correct benchmark code: the matrix is built once outside the timing, each %timeit waits for the result with `.block_until_ready()` on the array it reads, and %timeit repeats the call after its first loop, so the A100/V100 difference is the devices' LU speed, not a measuring artefact. Code: the maintainer's V100 session as posted in his reply, with its IPython prompts (outputs dropped); his A100 session is the same code.
# static: none
# dynamic: none
# inferred: none
# lines: none
# first-sight: 58b08e8 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false LB100:11

In [1]: import jax
   ...: import jax.numpy as jnp
   ...: import jax.lax as lax
   ...: import numpy as np

In [2]: A = jnp.array(np.random.normal(size=(4096, 4096)))

In [3]: %timeit jnp.linalg.slogdet(A)[1].block_until_ready()

In [4]: %timeit lax.linalg.lu(A)[0].block_until_ready()
