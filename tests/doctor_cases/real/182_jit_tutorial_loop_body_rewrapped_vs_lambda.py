# source: https://github.com/jax-ml/jax/issues/9288
# title: unjitted_loop_body is not constantly re-compiled in the JIT tutorial
# established-by: maintainer jakevdp (approved and merged the author GeraldCSC's fix of the tutorial, jax-ml/jax#9312: 'the caching in JAX can handle the original example, however it is not able to cache things like partial(f), lambda x: f(x) when calling `jax.jit` inside the loop')
# cause: The JIT tutorial's 'Don't do this!' example re-wraps the same named function, `jax.jit(unjitted_loop_body)(i)`, on every iteration of a Python loop; JAX caches compiled code per function object, so that traces once (one 'i am being jitted') and is not the recompilation the tutorial warned of. Wrapping a fresh `lambda x: unjitted_loop_body(x)` on every iteration is: a new function object each time, traced and compiled again on every iteration. Only the lambda version recompiles. Nothing is timed. Code: the three snippets as posted, one cell each (`jax` imported in an earlier cell that was not posted).
# static: LB111
# dynamic: LB210, LB252
# inferred: LB252 (in the runnable copy, `while i < n` compares a device value, the jitted call's result, and reads it on the host on every iteration; not discussed)
# lines: LB111:40
# first-sight: d3e47a7 2026-12-03 py: found LB111:40; missed none; false none | notebook: found LB111:40; missed none; false none

def g_inner_jitted_poorly(x, n):
  i = 0
  while i < n:
    # Don't do this!
    i = jax.jit(unjitted_loop_body)(i)
  return x + i

# %%
def unjitted_loop_body(prev_i):
  print("i am being jitted")
  return prev_i + 1

def g_inner_jitted_poorly(x, n):
  i = 0
  while i < n:
    # Don't do this!
    i = jax.jit(unjitted_loop_body)(i)
  return x + i
g_inner_jitted_poorly(10, 3)

# %%
def unjitted_loop_body(prev_i):
  print("i am being jitted")
  return prev_i + 1

def g_inner_jitted_poorly(x, n):
  i = 0
  while i < n:
    # Don't do this!
    i = jax.jit(lambda x: unjitted_loop_body(x))(i)
  return x + i
g_inner_jitted_poorly(10, 3)
