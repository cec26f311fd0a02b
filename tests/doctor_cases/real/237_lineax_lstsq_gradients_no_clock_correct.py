# source: https://github.com/patrick-kidger/lineax/blob/82db963d62b2379723ffe44750e74fb87ee56f87/benchmarks/lstsq_gradients.py
# title: lineax benchmarks/lstsq_gradients.py (JVP of a least-squares solve: jnp.linalg.lstsq against lineax.linear_solve)
# established-by: maintainer (lineax's benchmarks folder; the file's comment points to google/jax#14868, the NaN gradients of jnp.linalg.lstsq)
# cause: Correct code for what it checks: the file compares the forward-mode derivative of `jnp.linalg.lstsq` (NaN for the identity matrix, jax#14868) and of `lineax.linear_solve` with a finite-difference reference, and asserts on the values. It reads no clock, so there is nothing to wait for, warm up or repeat; the few eager `jax.jvp` calls run once each, outside any loop. Code: the file as stored.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f3b9bd0 2026-12-05 py: found none; missed none; false none | notebook: found none; missed none; false none

# Core JAX has some numerical issues with their lstsq gradients.
# See https://github.com/google/jax/issues/14868
# This demonstrates that we don't have the same issue!

import sys

import jax
import jax.numpy as jnp

import lineax as lx


sys.path.append("../tests")
from helpers import finite_difference_jvp  # pyright: ignore


a_primal = (jnp.eye(3),)
a_tangent = (jnp.zeros((3, 3)),)


def jax_solve(a):
    sol, _, _, _ = jnp.linalg.lstsq(a, jnp.arange(3))
    return sol


def lx_solve(a):
    op = lx.MatrixLinearOperator(a)
    return lx.linear_solve(op, jnp.arange(3)).value


_, true_jvp = finite_difference_jvp(jax_solve, a_primal, a_tangent)
_, jax_jvp = jax.jvp(jax_solve, a_primal, a_tangent)
_, lx_jvp = jax.jvp(lx_solve, a_primal, a_tangent)
assert jnp.isnan(jax_jvp).all()
assert jnp.allclose(true_jvp, lx_jvp)
