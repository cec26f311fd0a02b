# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/blob/9e27838b2848065b8c91f85f4d6eed065b86f42e/src/notebooks/jax_tutorials/chapter_4_just_in_time_compilation.ipynb
# title: Aakash Kumar Nain's TF_JAX_Tutorials, Kaggle notebook 'Part 7: Just In Time Compilation (JIT) in JAX': jitted dot product and ReLU timed over three printed passes with `time.time()` and `block_until_ready`, the same with a jitted `forward_pass` at a larger shape, and `%timeit` of a Python `while` loop over a jitted multiply
# established-by: maintainer AakashKumarNain (the tutorial series' author, published on Kaggle; no issue discusses its timing)
# cause: Every `time.time()` interval waits with `block_until_ready`, as the notebook's comments insist. What a correct doctor reports, by the catalogue and the corpus's readings: in both timing cells the jitted functions are created right before the loop and first called inside its first pass, so the first printed figures hold the trace and compile (LB103 at the five first calls in the loops, the reading of 368 and 302; the markdown after the cell explains the warm-up, but the code and its printed words do not say that the first figure is the compile, 244's reading); the intervals are read with `time.time()` (LB105 at the four start reads); the `%timeit` times `multiply_n_times`, which returns the last jitted `multiply_jit` result without waiting for it, so the 24.5 us figure is five dispatches (LB102 at the `%timeit` line; `%timeit` without `-n` absorbs the compile, and a jitted call in a Python loop is not op-by-op dispatch, no LB114); and `from jax.config import config` no longer imports on current JAX (LB113, the reading of 167, 175 and 287). Each pass's figures are printed on every pass (no LB104, the reading of 223). The 'forward pass' figure is read from the `start` taken before the activation call, so it also holds the activation's time: a fault the catalogue has no code for, left unlabelled. Code: the notebook's code cells at commit 9e27838 in order, one `# %%` cell each (the markdown, with its 'Don't do this!' snippet, the outputs and the final empty cell left out).
# static: LB113, LB103, LB105, LB102
# dynamic: n/a
# inferred: LB113 (`jax.config` is no longer an importable module; not discussed), LB103 (the first loop pass times each newly jitted function's compile; not discussed as a fault), LB105 (`time.time()` as the interval clock; not discussed), LB102 (`%timeit` of a function whose jitted result is never waited for; not discussed)
# lines: LB113:20, LB103:47/53/144/150/155, LB105:44/52/141/149, LB102:211
# first-sight: 35efc1f 2026-12-06 py: found LB113:20 LB105:44 LB105:52 LB105:141 LB105:149 LB102:211; missed LB103:47/53/144/150/155; false LB106:182 | notebook: found LB113:20 LB105:44 LB105:52 LB105:141 LB105:149 LB102:211; missed LB103:47/53/144/150/155; false LB106:182

# %%
import os
import time
import requests

import jax
import jax.numpy as jnp
from jax import jit, grad, random

from jax.config import config
%config IPCompleter.use_jedi = False

# %%
def apply_activation(x):
    return jnp.maximum(0.0, x)

def get_dot_product(W, X):
    return jnp.dot(W, X)

# %%
# Always use a seed
key = random.PRNGKey(1234)
W = random.normal(key=key, shape=[1000, 10000], dtype=jnp.float32)

# Never reuse the key
key, subkey = random.split(key)
X = random.normal(key=subkey, shape=[10000, 20000], dtype=jnp.float32)

# JIT the functions we have
dot_product_jit  = jit(get_dot_product)
activation_jit = jit(apply_activation)

for i in range(3):
    start = time.time()
    # Don't forget to use `block_until_ready(..)`
    # else you will be recording dispatch time only
    Z = dot_product_jit(W, X).block_until_ready()
    end = time.time()
    print(f"Iteration: {i+1}")
    print(f"Time taken to execute dot product: {end - start:.2f} seconds", end="")
    
    start = time.time()
    A = activation_jit(Z).block_until_ready()
    print(f", activation function: {time.time()-start:.2f} seconds")

# %%
# Make jaxpr for the activation function
print(jax.make_jaxpr(activation_jit)(Z))

# %%
# Make jaxpr for the activation function
print(jax.make_jaxpr(dot_product_jit)(W, X))

# %%
# We know that `print` introduces but impurity but it is
# also very useful to print values while debugging. How does
# jaxprs interpret that?

def number_squared(num):
    print("Received: ", num)
    return num ** 2

# Compiled version
number_squared_jit = jit(number_squared)

# Make jaxprs
print(jax.make_jaxpr(number_squared_jit)(2))

# %%
# Subsequent calls to the jitted function
for i, num in enumerate([2, 4, 8]):
    print("Iteration: ", i+1)
    print("Result: ", number_squared_jit(num))
    print("="*50)

# %%
squared_numbers = []

# An impure function (using a global state)
def number_squared(num):
    global squared_numbers
    squared = num ** 2
    squared_numbers.append(squared)
    return squared

# Compiled verison
number_squared_jit = jit(number_squared)

# Make jaxpr
print(jax.make_jaxpr(number_squared_jit)(2))

# %%
# Subsequent calls to the jitted function
for i, num in enumerate([4, 8, 16]):
    print("Iteration: ", i+1)
    print("Result: ", number_squared_jit(num))
    print("="*50)
    
# What's in the list?
print("\n Results in the global list")
squared_numbers

# %%
# Calling the two functions into a single function
# so that we can jit this function instead of jitting them
def forward_pass(W, X):
    Z = get_dot_product(W, X)
    A = apply_activation(Z)
    return Z, A



# Always use a seed
key = random.PRNGKey(1234)

# We will use much bigger array this time
W = random.normal(key=key, shape=[2000, 10000], dtype=jnp.float32)

# Never reuse the key
key, subkey = random.split(key)
X = random.normal(key=subkey, shape=[10000, 20000], dtype=jnp.float32)

# JIT the functions we have individually
dot_product_jit  = jit(get_dot_product)
activation_jit = jit(apply_activation)

# JIT the function that wraps both the functions
forward_pass_jit = jit(forward_pass)

for i in range(3):
    start = time.time()
    # Don't forget to use `block_until_ready(..)`
    # else you will be recording dispatch time only
    Z = dot_product_jit(W, X).block_until_ready()
    end = time.time()
    print(f"Iteration: {i+1}")
    print(f"Time taken to execute dot product: {end - start:.2f} seconds", end="")
    
    start = time.time()
    A = activation_jit(Z).block_until_ready()
    print(f", activation function: {time.time()- start:.2f} seconds")
    
    # Now measure the time with a single jitted function that calls
    # the other two functions
    Z, A = forward_pass_jit(W, X)
    Z, A = Z.block_until_ready(), A.block_until_ready()
    print(f"Time taken by the forward pass function: {time.time()- start:.2f} seconds")
    print("")
    print("="*50)

# %%
def square_or_cube(x):
    if x % 2 == 0:
        return x ** 2
    else:
        return x * x * x


# JIT transformation
square_or_cube_jit = jit(square_or_cube)

# Run the jitted version on some sample data
try:
    val = square_or_cube_jit(2)
except Exception as ex:
    print(type(ex).__name__, ex)

# %%
def multiply_n_times(x, n):
    count = 0
    res = 1
    while count < n:
        res = res * x
        count +=1 
    return x


try:
    val = jit(multiply_n_times)(2, 5)
except Exception as ex:
    print(type(ex).__name__, ex)

# %%
# Jitting the expensive computational part
def multiply(x, i):
    return x * i

# Specifying the static args
multiply_jit = jit(multiply, static_argnums=0)

# Leaving it as it as
def multiply_n_times(x, n):
    count = 0
    res = 1
    while count < n:
        res = multiply_jit(x, res)
        count += 1
    return res


%timeit multiply_n_times(2, 5)
