# source: https://github.com/SciML-OpenLab/JAX-vs-PyTorch-Benchmark-Analysis/blob/caf689b43abf31a8f4ecf7223ce2412c3357c71b/models/jax_model.py
# title: SciML-OpenLab's JAX-vs-PyTorch-Benchmark-Analysis `models/jax_model.py`: a two-layer MLP's `train(config)` times `config["epochs"]` calls of a jitted SGD `update` between two `time.time()` reads and returns the interval as 'time' (the harness `experiments/cnn_benchmark.py` averages five such runs against the PyTorch model's)
# established-by: maintainer SciML-OpenLab (the repository's own benchmark code; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. The loop's first call of the jitted `update` traces and compiles inside the timed interval, and nothing calls `update` before it (LB103 at the `params = update(` line; the five-run harness lives in another file, and each run's figure is reported as it is); the last `params` is never waited for before `end = time.time()` (the `float(loss_fn(...))` that would wait comes after the clock stops), so the interval ends with updates still queued (LB102 at the same line); the clock is `time.time()` (LB105 at `start = time.time()` and `end = time.time()`). Not labelled: the interval holds a loop of `epochs` calls, not one (no LB104); `update` is jitted once at module level (no LB111, no LB114). Code: the file as stored at commit caf689b, unchanged.
# static: LB102, LB103, LB105
# dynamic: n/a
# inferred: LB102 (the updated parameters are never waited for before the clock stops; not discussed), LB103 (the jitted update's first call, its compile, is inside the timed loop; not discussed), LB105 (time.time() as the interval clock, as elsewhere in the corpus; not discussed)
# lines: LB102:48, LB103:48, LB105:45/50
# first-sight: a0c2c7e 2026-12-07 py: found LB105:45 LB102:48 LB103:48; missed none; false none | notebook: found LB105:45 LB102:48 LB103:48; missed none; false none

import jax
import jax.numpy as jnp
import time
from jax import grad, jit

def init_params():
    key = jax.random.PRNGKey(0)
    W1 = jax.random.normal(key, (100, 64))
    b1 = jnp.zeros((64,))
    W2 = jax.random.normal(key, (64, 1))
    b2 = jnp.zeros((1,))
    return (W1, b1, W2, b2)

def forward(params, x):
    W1, b1, W2, b2 = params
    h = jnp.dot(x, W1) + b1
    h = jax.nn.relu(h)
    return jnp.dot(h, W2) + b2

def loss_fn(params, x, y):
    preds = forward(params, x)
    return jnp.mean((preds - y) ** 2)

@jit
def update(params, x, y, lr):
    grads = grad(loss_fn)(params, x, y)
    return jax.tree_map(lambda p, g: p - lr * g, params, grads)

def train(config):
    params = init_params()

    X = jnp.array(jax.random.normal(jax.random.PRNGKey(1), (1000, 100)))
    y = jnp.array(jax.random.normal(jax.random.PRNGKey(2), (1000, 1)))

    start = time.time()

    for _ in range(config["epochs"]):
        params = update(params, X, y, config["lr"])

    end = time.time()

    return {
        "time": end - start,
        "final_loss": float(loss_fn(params, X, y))
    }
