# source: https://github.com/phlippe/uvadlc_notebooks/blob/053efa4b50d8b28af46ce95cef72d46e0794781f/docs/tutorial_notebooks/JAX/tutorial2/Introduction_to_JAX.ipynb
# title: UvA Deep Learning Tutorial 2 (JAX): Introduction to JAX+Flax, 'Speeding up computation with Just-In-Time compilation'
# established-by: maintainer phlippe (the tutorial's author, Phillip Lippe: run the jitted function once to compile it, then time with `.block_until_ready()` because execution on the accelerator is asynchronous)
# cause: Correct timing code: `simple_graph` and its gradient are timed unjitted and jitted with `%%timeit` on a 1000-element input; each jitted function is called once before it is timed ('Run the jitted function once to start compilation'), every timed statement waits with `.block_until_ready()`, and the eager versions' first-use compiles fall into `%%timeit`'s untimed calibration run. The tutorial's 10-15x (598 us against 19.5 us) is the eager function's one-dispatch-per-operation cost against one compiled call, which is what the section sets out to show. Code: the notebook's code cells from the imports of JAX to the last timing, with the cells they use, markdown and outputs dropped (notebook as stored at commit 053efa4).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f3b9bd0 2026-12-05 py: found none; missed none; false LB114:50 | notebook: found none; missed none; false LB114:50

import jax
import jax.numpy as jnp
print("Using jax", jax.__version__)
# %%
rng = jax.random.PRNGKey(42)
# %%
def simple_graph(x):
    x = x + 2
    x = x ** 2
    x = x + 3
    y = x.mean()
    return y

inp = jnp.arange(3, dtype=jnp.float32)
print('Input', inp)
print('Output', simple_graph(inp))
# %%
grad_function = jax.grad(simple_graph)
gradients = grad_function(inp)
print('Gradient', gradients)
# %%
jitted_function = jax.jit(simple_graph)
# %%
# Create a new random subkey for generating new random values
rng, normal_rng = jax.random.split(rng)
large_input = jax.random.normal(normal_rng, (1000,))
# Run the jitted function once to start compilation
_ = jitted_function(large_input)
# %%
%%timeit
simple_graph(large_input).block_until_ready()
# %%
%%timeit
jitted_function(large_input).block_until_ready()
# %%
jitted_grad_function = jax.jit(grad_function)
_ = jitted_grad_function(large_input)  # Apply once to compile
# %%
%%timeit
grad_function(large_input).block_until_ready()
# %%
%%timeit
jitted_grad_function(large_input).block_until_ready()
