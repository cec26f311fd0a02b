# source: https://github.com/jax-ml/jax/issues/36927
# title: Performance regression in batched jnp.linalg.solve on CPU from jax/jaxlib 0.9.2 to 0.10.0
# established-by: answer by the author clemisch (his blocked `%timeit` of the jitted solve and of its jitted gradient under both releases: 33.3 ms against 87 ms for the solve, 57.4 ms against 159 ms for the gradient; the issue is open, labelled bug)
# cause: Correct timing code: a batch of 86,268 small (3x3) systems is solved by `jax.jit(jnp.linalg.solve)` and differentiated by a jitted `jax.grad`; each function is called once and waited for with `jax.block_until_ready` before any timing, and each `%timeit` statement waits for its result, so the figures are steady-state execution times. The slowdown it reports is in the batched solve that jaxlib 0.10.0 runs on CPU, a regression between two releases that no code in the catalogue names; the measurement that exposes it is sound. Code: the reproduction as posted, its printed output dropped.
# static: none
# dynamic: none
# inferred: none
# lines: none
# first-sight: f3b9bd0 2026-12-05 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
import jax.numpy as jnp

print(f"jax={jax.__version__}")
print(f"jaxlib={jax.lib.__version__}")

batch = 182 * 474
key_A = jax.random.key(0)
key_b = jax.random.key(1)

A = jax.random.normal(key_A, (batch, 3, 3), dtype=jnp.float32)
A = A @ jnp.swapaxes(A, -1, -2) + 1e-2 * jnp.eye(3, dtype=jnp.float32)
b = jax.random.normal(key_b, (batch, 3, 1), dtype=jnp.float32)

solve = jax.jit(jnp.linalg.solve)
grad = jax.jit(
    jax.grad(lambda A, b: jnp.sum(jnp.linalg.solve(A, b)), argnums=(0, 1))
)

jax.block_until_ready(solve(A, b))
jax.block_until_ready(grad(A, b))

%timeit jax.block_until_ready(solve(A, b))
%timeit jax.block_until_ready(grad(A, b))
