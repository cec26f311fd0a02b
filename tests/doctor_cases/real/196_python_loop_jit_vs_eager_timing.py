# source: https://theneuralbase.com/jax/learn/beginner/what-jit-compiles-xla-computation/
# title: What JIT compiles: XLA computation (JAX beginner lesson: a Python loop timed without and with jax.jit) (entered again: retired case 119 with its dynamic label corrected)
# established-by: answer by the lesson's author (theneuralbase; its "why this matters": Python loops defeat JIT compilation; the unjitted function runs every operation from Python)
# cause: The lesson's point: `slow_function` called without jit runs its 1000-step Python loop operation by operation, 2000 dispatches per call, while under `jax.jit` the same Python loop is traced and unrolled into 1000 copies of the body, so the loop is not compiled as a loop (the lesson's warning that Python loops defeat JIT). (Entered first as case 119, labelled LB201 for the jitted loop; retired 2026-12-03 because the loop is `range(1000)`, a constant that grows with no input, which the catalogue gives to LB202 (the same block repeated in one trace when no input axis can be scaled), as case 056's `for _ in range(500)` under jit is labelled; LB201 is a loop that grows with an input's length. Static labels and lines unchanged.) The timings themselves have two faults the lesson does not discuss: neither timed loop waits for its last result, and the first `jit_function(x)` of the jitted loop traces and compiles the unrolled program inside `jit_time`. Code: the lesson's code block as stored; the page is cut off after the first print.
# static: LB114, LB106, LB102, LB103
# dynamic: LB240, LB202
# inferred: LB102 (no timed result is waited for), LB103 (the first jitted call compiles inside the timed loop)
# lines: LB114:26, LB106:16, LB102:26/32, LB103:32
# first-sight: c3b020c 2026-12-02 py: found LB106:16 LB102:26 LB114:26 LB102:32; missed LB103:32; false LB114:25 | notebook: found LB106:16 LB102:26 LB114:26 LB102:32; missed LB103:32; false LB114:25

import jax
import jax.numpy as jnp

def slow_function(x):
    result = 0.0
    for i in range(1000):
        result = result + jnp.sin(x) * 0.001
    return result

jit_function = jax.jit(slow_function)
x = jnp.array(3.14)

import time
start = time.perf_counter()
for _ in range(100):
    slow_function(x)
end = time.perf_counter()
python_time = end - start

start = time.perf_counter()
for _ in range(100):
    jit_function(x)
end = time.perf_counter()
jit_time = end - start

print(f"Python loop time: {python_time:.4f}s")
