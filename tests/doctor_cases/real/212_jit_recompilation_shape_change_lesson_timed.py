# source: https://theneuralbase.com/jax/learn/beginner/jit-recompilation-shape-changes/
# title: jit recompilation: shape changes (JAX beginner lesson: a jitted add_one timed at shape (5,), again at (5,), then at (3,))
# established-by: answer by the lesson's author (theneuralbase; "if you call the same JIT-compiled function with different input shapes, JAX cannot reuse the compiled code: it must recompile from scratch")
# cause: The lesson's point: `add_one` is jitted, so its first call at shape (5,) traces and compiles inside the timing ("Time (includes compilation)"), a second call at (5,) reuses the executable, and a call at shape (3,) compiles again. The timings themselves have faults the lesson does not discuss: each is one `perf_counter` sample of one call, the result is printed only after the clock stopped (the call is not waited for), and each timed statement also builds its input from a Python list (a host-to-device copy inside the timing). Code: the lesson's code block as stored; the stored page is cut off in the statement of the third timing, so the case ends before it.
# static: LB104, LB102, LB115
# dynamic: LB211
# inferred: LB104 (the warm figure is one sample of one call), LB102 (no timed result is waited for before the clock stops), LB115 (`jnp.array` of a Python list inside each timing). The first timing holds the compile on purpose (printed as "includes compilation"), so it carries neither a compile-in-timing nor a single-sample label, as in case 202
# lines: LB104:28, LB102:21/28, LB115:21/28
# first-sight: eec90bb 2026-12-03 py: found LB102:21 LB104:28 LB102:28; missed LB115:21/28; false LB104:21 | notebook: found LB102:21 LB104:28 LB102:28; missed LB115:21/28; false LB104:21

import jax
import jax.numpy as jnp
import time

@jax.jit
def add_one(x):
    return x + 1

print("=== First shape: (5,) ===")
start = time.perf_counter()
result1 = add_one(jnp.array([1.0, 2.0, 3.0, 4.0, 5.0]))
first_compile_time = time.perf_counter() - start
print(f"Result: {result1}")
print(f"Time (includes compilation): {first_compile_time * 1000:.3f} ms")

print("\n=== Same shape again: (5,) ===")
start = time.perf_counter()
result2 = add_one(jnp.array([10.0, 20.0, 30.0, 40.0, 50.0]))
same_shape_time = time.perf_counter() - start
print(f"Result: {result2}")
print(f"Time (reuses compiled code): {same_shape_time * 1000:.3f} ms")
