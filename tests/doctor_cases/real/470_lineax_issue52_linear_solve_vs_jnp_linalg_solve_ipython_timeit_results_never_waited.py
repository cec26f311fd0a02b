# source: https://github.com/patrick-kidger/lineax/issues/52
# title: patrick-kidger/lineax#52 ('Is lineax slower than the linear solver in JAX?'): `lx.linear_solve` with `solver=lx.LU()` against `jnp.linalg.solve` on a 10x10 system, each timed with IPython's `%timeit` with no wait for the result, 931 us against 171 us
# established-by: maintainer patrick-kidger
# cause: patrick-kidger answered that the difference is overhead, from two things: Lineax checks by default that the solve succeeded (no NaNs in the output; `linear_solve(..., throw=False)` turns it off), and the operator and the solver are more complex pytrees than a matrix and a vector to flatten and unflatten at the JIT boundary; with his own benchmark (posted, but cut off in the stored thread) the two ran equally fast. What a correct doctor reports besides, by the catalogue: neither `%timeit` waits for its JAX result (LB102 at both lines; on a 10x10 system the figures are mostly dispatch and Python-side work in any case, which is what the answer's overheads are). Not labelled: `%timeit` without `-n` calibrates first, so the compile of each call stays out of the reported loops (no LB103); the inputs are JAX arrays (no LB115); `lx.linear_solve` and `jnp.linalg.solve` each compile as one program, and there is no loop of eager operations (no LB114). Code: the cells, unchanged.
# static: LB102
# dynamic: n/a
# inferred: LB102 (neither %timeit waits for the result; the answer named other overheads and did not discuss it)
# lines: LB102:22/24
# first-sight: e4a92af 2026-12-06 py: found LB102:24; missed none; false none | notebook: found LB102:24; missed none; false none

from jax import random
import jax.numpy as jnp
import lineax as lx

matrix_key, vector_key = random.split(random.PRNGKey(0))
matrix = random.normal(matrix_key, (10, 10))
vector = random.normal(vector_key, (10,))

operator = lx.MatrixLinearOperator(matrix)
solution = lx.linear_solve(operator, vector)

%timeit lx.linear_solve(operator, vector, solver=lx.LU())

%timeit jnp.linalg.solve(matrix, vector)
