# source: https://github.com/jax-ml/jax/issues/1966
# title: Einsum is ~2x slower for trivial matmuls
# established-by: maintainer mattjj ('those don't look like TPU numbers at all to me': his runs and another user's on TPU gave einsum and matmul the same time, 3.8-4.6 ms; 'Could JAX be falling back to the CPU backend in your test?')
# cause: The timings posted (139 ms for the matmul, 227 ms for the einsum) are not TPU timings: on a TPU both take about 4 ms and einsum is no slower, so the comparison ran on the CPU backend, which the colab had fallen back to. The measurement itself is sound: each jitted function is called once and waited for before its `%timeit`, and every timed call is waited for with `block_until_ready`. What was wrong is the device, which no line of the code shows. Code: the snippet as posted (one colab cell; `jax` and `jnp` imported in an earlier cell that was not posted).
# static: none
# dynamic: none
# inferred: none
# lines: none
# first-sight: d3e47a7 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

key = jax.random.PRNGKey(0)
w = jax.random.uniform(key, (384, 1536))
x = jax.random.uniform(key, (256, 256, 384))

@jax.jit
def f(x, w):
  return x @ w

@jax.jit
def g(x, w):
  return jnp.einsum("ABa,ab->ABb", x, w)

print("Matmul")
f(x, w).block_until_ready()
%timeit f(x, w).block_until_ready()
print("\nEinsum")
g(x, w).block_until_ready()
%timeit g(x, w).block_until_ready()
