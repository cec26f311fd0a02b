# source: https://openillumi.com/en/en-jax-async-dispatch-benchmark-guide
# title: JAX's jit Execution Slows Down After the First Run? (a Stack Overflow question about a vmapped jitted matmul timed twice, retold with its answer)
# established-by: answer by the article's author (openillumi), retelling the Stack Overflow answer: add block_until_ready
# cause: JAX dispatches asynchronously, so neither timing waits for the batched matmul to finish: each `vectorized_function(x, y)` returns as soon as the work is queued and the clock stops before the device is done, which is why the second run can read slower than the first (the article's answer: call block_until_ready on the result before stopping the clock). The first timing includes compilation on purpose (the question compares it with the second) and is not labelled LB103. Code: the question's snippet as the article quotes it.
# static: LB102, LB105, LB115, LB104
# dynamic: LB250, LB230
# inferred: LB105 (time() as the interval clock; the answer did not discuss it), LB115 and LB250 (x and y are NumPy float64 arrays, converted and copied to the device inside both timed calls, 8 GB for x; the answer did not discuss it), LB230 (the float64 arrays are computed in float32; not discussed), LB104 (each figure is one time() sample of one call; the answer did not discuss it)
# lines: LB102:28/33, LB115:28/33, LB105:27/32, LB104:28/33
# first-sight: c3b020c 2026-12-02 py: found LB105:27 LB102:28 LB104:28 LB115:28 LB105:32 LB102:33 LB104:33 LB115:33; missed none; false LB103:28 | notebook: found LB105:27 LB102:28 LB104:28 LB115:28 LB105:32 LB102:33 LB104:33 LB115:33; missed none; false LB103:28

from time import time
import jax
import numpy as np

@jax.jit
def my_function(x, y):
    # Matrix multiplication
    return x @ y

# Apply vmap to process matrices in batches
vectorized_function = jax.vmap(my_function, in_axes=(0, None))
shape = (1_000_000, 1_000)  # Simulating large-scale computation
x = np.ones(shape)
y = np.ones(shape[1])

# --- First execution (t_1) ---
start = time()
vectorized_function(x, y)
t_1 = time() - start

# --- Second execution (t_2) ---
start = time()
vectorized_function(x, y)
t_2 = time() - start
print(f'{t_1 = }\n{t_2 = }')
