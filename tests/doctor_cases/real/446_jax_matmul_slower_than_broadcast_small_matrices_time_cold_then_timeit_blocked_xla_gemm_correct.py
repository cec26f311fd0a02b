# source: https://github.com/jax-ml/jax/issues/33004
# title: Matmul is slower than explizit broadcasting for small matrices: a jitted `jnp.einsum('...i,...ij->...j')` of a (1_000_000, 3) array with a (3, 3) matrix against the same einsum on explicitly broadcast operands, each timed with `%time` on its first blocked call and then `%timeit` of blocked calls on an NVIDIA L4 (2.94 ms against 192 us)
# established-by: maintainer jakevdp (reproduced it, 'On CPU, I'm seeing that `g` is slower than `f`, but on GPU `f` is slower than `g`', and printed the compiled HLO: the plain einsum becomes one `__cublas$gemm` custom call on a (1000000, 3) x (3, 3) product; the issue is labelled bug, type:performance, XLA)
# cause: The gap is the compiled program's, not the measurement's: XLA:GPU hands the tall-skinny (1e6 x 3) @ (3 x 3) product to a cuBLAS GEMM, which is slow for that shape, while the broadcast version becomes a batched contraction XLA fuses; on CPU the order flips, as the maintainer found by running it and reading the HLO. The measurement itself is sound by the catalogue and the corpus's readings: both inputs are made on the device with `jax.random.normal` before timing; each function's first call is timed with `%time` and then timed again warm right after with `%timeit` (a compile timed on purpose, the reading of cases 287 and 372: no LB103; `%time` is a one-run readout by design, not LB104); every timed call ends in `.block_until_ready()` (no LB102); `%timeit` repeats and reports mean and spread. `g` calls the jitted `f` inside its own trace, which inlines it (no LB111). Code: the program as posted; its printed output and system info are left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none

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
