# source: https://github.com/jax-ml/jax/issues/15761
# title: Jax jit-compile functions many times
# established-by: reporter's measurement in the issue (closed as a question): one compilation per new length of `indices`, none for the repeated length
# cause: The jitted some_func is called in a timed loop with `li = jnp.arange(n_indices)`, a new shape for each new n_indices, so jit traces and compiles again inside the timed region for 5, 8 and 10; the repeated 10s reuse the compiled program.
# static: LB117, LB103, LB102, LB106
# dynamic: LB211
# inferred: LB102 (some_func is timed without waiting for its result); LB106 (the `for idx, j in enumerate(indices)` loop under jit unrolls one update per index, so each compilation grows with n_indices)
# lines: LB117:32/36, LB103:36, LB102:36, LB106:20

import time
import jax
import jax.numpy as jnp


# A dummy function
@jax.jit
def some_func(vec, indices):
    out = jnp.zeros(len(indices))

    for idx, j in enumerate(indices):
        out_j = vec[j]
        out = out.at[idx].set(out_j)

    return out


timings = []
x = jnp.ones(20)

for n_indices in [5, 8, 10, 10, 10]:
    # make a list of indices
    li = jnp.arange(n_indices)

    # time the execution of function
    start = time.perf_counter()
    some_func(x, li)
    end = time.perf_counter()

    timings.append(end - start)
