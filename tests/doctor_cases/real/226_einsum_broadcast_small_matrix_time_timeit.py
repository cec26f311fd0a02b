# source: https://github.com/jax-ml/jax/issues/33004
# title: Matmul is slower than explizit broadcasting for small matrices
# established-by: answer by the author n-gao (his blocked `%timeit` of both forms on an NVIDIA L4; the maintainers triaged it as an XLA performance bug, labels bug, type:performance, XLA)
# cause: `jnp.einsum("...i,...ij->...j")` of a (1,000,000, 3) batch against one 3x3 matrix ran at 2.94 ms per call, while broadcasting the matrix to the full batch first and running the same einsum took 192 us: XLA's lowering of the unbroadcast contraction is the slow path, a compiler issue the catalogue has no code for. The steady-state figures are sound: each `%timeit` follows a call that compiled the function and waits with `.block_until_ready()`. The two `%time` lines are single samples of each function's first call, so they hold tracing and compiling (the posted wall times, 36.9 ms and 83.5 ms, are mostly that); the thread reads only the `%timeit` figures. Entered first as 220 with LB104 at the two `%time` lines; retired (see the README: `%time` is the one run it announces). Code: the snippet as posted, its printed output dropped.
# static: LB103
# dynamic: none
# inferred: LB103 (each `%time` times a jitted function's first call; not discussed, the thread's comparison uses the `%timeit` lines); the established cause, XLA's slow lowering of the unbroadcast einsum, has no static or dynamic code
# lines: LB103:31/33
# first-sight: eec90bb 2026-12-03 py: found LB103:31 LB103:33; missed none; false none | notebook: found LB103:31 LB103:33; missed none; false none

import jax
import jax.numpy as jnp

a = jax.random.normal(key=jax.random.PRNGKey(0), shape=(1_000_000, 3))
A = jax.random.normal(key=jax.random.PRNGKey(0), shape=(3, 3))


@jax.jit
def f(a, A):
    return jnp.einsum("...i,...ij->...j", a, A)


@jax.jit
def g(a, A):
    shape = jnp.broadcast_shapes(a.shape[:-1], A.shape[:-2])
    a_b = jnp.broadcast_to(a, shape + a.shape[-1:])
    A_b = jnp.broadcast_to(A, shape + A.shape[-2:])
    return f(a_b, A_b)


%time f(a, A).block_until_ready()
%timeit f(a, A).block_until_ready()
%time g(a, A).block_until_ready()
%timeit g(a, A).block_until_ready()
