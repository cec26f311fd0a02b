# source: https://github.com/jax-ml/jax/issues/36927
# explain: solve, grad
# dynamic: none
# first-sight: f3b9bd0 2026-12-05 explain: found none; missed none; false none
# Runnable copy of 232_jax_batched_solve_regression_timeit_blocked_correct.py for levelbench.explain: the issue's
# jitted batched solve and its jitted gradient, on a batch of 1024 3x3 systems instead of 182 * 474.

import jax
import jax.numpy as jnp

solve = jax.jit(jnp.linalg.solve)
grad = jax.jit(
    jax.grad(lambda A, b: jnp.sum(jnp.linalg.solve(A, b)), argnums=(0, 1))
)


def _inputs():
    batch = 1024
    A = jax.random.normal(jax.random.key(0), (batch, 3, 3), dtype=jnp.float32)
    A = A @ jnp.swapaxes(A, -1, -2) + 1e-2 * jnp.eye(3, dtype=jnp.float32)
    b = jax.random.normal(jax.random.key(1), (batch, 3, 1), dtype=jnp.float32)
    return A, b


def solve_args():
    return _inputs()


def grad_args():
    return _inputs()
