# source: https://docs.jax.dev/en/latest/control-flow.html
# title: Control flow and logical operators with JIT (functions with argument-value dependent shapes)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct code: marking `length` static lets jit build an output whose shape depends on its value, at the cost of one compilation per distinct length, which the page says is handy when the value rarely changes (here it changes once); the unmarked version fails by design.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 43b52af 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

def example_fun(length, val):
  return jnp.ones((length,)) * val
# un-jit'd works fine
print(example_fun(5, 4))
# %%
bad_example_jit = jit(example_fun)
# this will fail:
bad_example_jit(10, 4)
# %%
# static_argnames tells JAX to recompile on changes at these argument positions:
good_example_jit = jit(example_fun, static_argnames='length')
# first compile
print(good_example_jit(10, 4))
# recompiles
print(good_example_jit(5, 4))
