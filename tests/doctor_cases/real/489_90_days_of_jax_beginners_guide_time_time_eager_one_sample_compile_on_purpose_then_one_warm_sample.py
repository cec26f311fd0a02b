# source: https://github.com/Kevinobote/90-Days-of-JAX/blob/c0b9066dd09ada6491baf9d9e6539f6fbf36a919/jax.ipynb
# title: Kevinobote/90-Days-of-JAX's 'Learning JAX: A Beginner's Guide' notebook, section '2. Just-In-Time (JIT) Compilation': a sum of elementwise sin, cos, tanh and exp over 1,000,000 floats timed with `time.time()` pairs and `.block_until_ready()`: eager once (0.367 s), jitted on its first run (0.0585 s, 'first run includes compilation time') and second run (0.0094 s), and a decorated jitted copy on its first run (0.048 s)
# established-by: maintainer Kevinobote (the notebook's author; its comments and printed labels say what each timing is: 'JAX execution is asynchronous. block_until_ready() ensures computation finishes for timing.', 'first run includes compilation time', 'subsequent runs are faster')
# cause: Every timing waits for its result (no LB102), and the two first-run timings of the jitted functions are compile timed on purpose: the comment and the printed labels ('Compiled function (first run)', 'Decorated JIT function (first run)') say the figure includes the compile, so neither is LB103 or LB104 (the README's 'timing that measures compilation on purpose'). What a correct doctor reports by the catalogue: the eager figure and the warm jitted figure, the two the notebook compares, are each one clock pair around one call, with nothing to judge the spread by (LB104 at the first statement inside each pair; 0.0094 s is one warm sample); and every interval is read with `time.time()` (LB105 at the four start reads). Not labelled: the eager run is also the first use of each `jnp` operation at this shape, whose small compiles land in the 0.367 s, but the corpus does not give LB103 to the first timed eager JAX call (197's reading); the eager `slow_function` is one call, not a loop of dispatches (no LB114); the input is a JAX array (no LB115). Code: the notebook's first code cell (imports and array basics) and its JIT cell at commit c0b9066, unchanged; the markdown, the commented-out `!pip` cell and the later sections (immutability, `grad`, `vmap`, random numbers and the rest) are left out.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (the eager and the warm jitted figures are one sample each; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB104:47/62, LB105:46/55/61/74
# first-sight: d481e6f 2026-12-06 py: found LB105:46 LB104:47 LB105:55 LB105:61 LB104:62 LB105:74; missed none; false none | notebook: found LB105:46 LB104:47 LB105:55 LB105:61 LB104:62 LB105:74; missed none; false none

# %%
import jax
import jax.numpy as jnp
import numpy as np # We'll use standard NumPy for comparison sometimes

# Create a JAX array
x_jnp = jnp.array([1.0, 2.0, 3.0])
print(f"JAX array: {x_jnp}, type: {type(x_jnp)}")

# Create a NumPy array for comparison
x_np = np.array([1.0, 2.0, 3.0])
print(f"NumPy array: {x_np}, type: {type(x_np)}")

# Basic operations look the same
y_jnp = jnp.arange(1, 4, dtype=jnp.float32)
sum_jnp = x_jnp + y_jnp
print(f"Sum of JAX arrays: {sum_jnp}")

prod_jnp = jnp.dot(x_jnp, y_jnp)
print(f"Dot product of JAX arrays: {prod_jnp}")

# JAX arrays are typically on a device (CPU by default here, could be GPU/TPU)
print(f"Device of x_jnp: {x_jnp.device}")

# %%
import time

def slow_function(x):
  # A somewhat arbitrary computation
  return jnp.sum(jnp.sin(x) * jnp.cos(x) + jnp.tanh(x) / (jnp.exp(x) + 1e-6))

large_array = jnp.arange(1_000_000, dtype=jnp.float32)

# Time the uncompiled function
# JAX execution is asynchronous. block_until_ready() ensures computation finishes for timing.
start_time = time.time()
result_uncompiled = slow_function(large_array).block_until_ready()
time_uncompiled = time.time() - start_time
print(f"Uncompiled function time: {time_uncompiled:.6f} seconds")

# Compile the function with jax.jit
fast_function = jax.jit(slow_function)

# Time the compiled function (first run includes compilation time)
start_time = time.time()
result_compiled_first = fast_function(large_array).block_until_ready()
time_compiled_first = time.time() - start_time
print(f"Compiled function (first run): {time_compiled_first:.6f} seconds")

# Time the compiled function (subsequent runs are faster)
start_time = time.time()
result_compiled_second = fast_function(large_array).block_until_ready()
time_compiled_second = time.time() - start_time
print(f"Compiled function (second run): {time_compiled_second:.6f} seconds")

# Check results are the same
print(f"Results are close: {jnp.allclose(result_uncompiled, result_compiled_second)}")

# You can also use @jax.jit as a decorator
@jax.jit
def even_faster_function(x):
  return jnp.sum(jnp.sin(x) * jnp.cos(x) + jnp.tanh(x) / (jnp.exp(x) + 1e-6))

start_time = time.time()
result_decorated = even_faster_function(large_array).block_until_ready()
time_decorated = time.time() - start_time
print(f"Decorated JIT function (first run): {time_decorated:.6f} seconds")
