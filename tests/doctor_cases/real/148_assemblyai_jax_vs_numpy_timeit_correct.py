# source: https://www.assemblyai.com/blog/why-you-should-or-shouldnt-be-using-jax-in-2023/
# title: Why You Should (or Shouldn't) be Using Google's JAX in 2023 (AssemblyAI blog): summing the first three powers of a matrix in NumPy and in jitted JAX
# established-by: answer by the article's author (AssemblyAI), whose comparison this is
# cause: Correct benchmark code: the JAX timing waits for every call with `.block_until_ready()`, the input is converted to a JAX array once before the timing (so no host-to-device copy is timed), both sides use float32, and `%timeit` repeats the call, so the compilation in its first loop does not decide the figure the article quotes (a best of 5). Code: the article's two cells as shown, without the imports it does not show.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: cfe09ac 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

def fn(x):
  return x + x*x + x*x*x
x = np.random.randn(10000, 10000).astype(dtype='float32')
%timeit -n5 fn(x)
# %%
jax_fn = jit(fn)
x = jnp.array(x)
%timeit jax_fn(x).block_until_ready()
