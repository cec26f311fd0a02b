# source: https://github.com/jax-ml/jax/blob/74569210551967db27ede9871b105b711e6fd202/docs/tutorials/profiling-and-performance.md
# title: JAX docs, 'Profiling and performance' (a draft placeholder of the new tutorials): data transfer, jit and asynchronous dispatch timed on a small MLP
# established-by: maintainer dfm (the draft's author, per its TODO(dfm): isolate the host-to-device copy with `jax.device_put`, warm up, and block on the result)
# cause: The draft's advice is sound and its last timing follows it: `compiled_mlp` is warmed up and every `%timeit` run waits with `jax.block_until_ready`. Its two earlier timings do not. The transfer timing `%time ... jax.device_put(...)` times one host-to-device copy (on purpose, to isolate it) but never waits for it, and `device_put` returns before the copy finishes. Under 'Just-in-time compilation', `%timeit jax.block_until_ready(jax.jit(mlp)(layers_jax, batch_jax))` applies `jax.jit` inside the timed statement, so every run builds a new jit wrapper and looks its executable up in the cache (the first run also traces and compiles) before the computation runs. The `%timeit` of `jax.jit(mlp).lower(...).compile()` times compilation on purpose and is not labelled; the MLP's loop over its list of layers is not LB106 (cases 111, 137). Code: the draft's code cells as stored (commit 7456921), empty cells and markdown dropped. Entered first as 241 with LB115 at the transfer timing; retired (see the README: an explicit transfer timed alone is the copy timed on purpose, as in 036).
# static: LB102, LB111
# dynamic: n/a
# inferred: LB102 (the `%time` of `device_put` does not wait for the copy), LB111 (`jax.jit(...)(...)` inside a repeated timed statement, the catalogue's case)
# lines: LB102:30, LB111:34
# first-sight: f3b9bd0 2026-12-05 py: found LB102:30 LB111:34; missed none; false none | notebook: found LB102:30 LB111:34; missed none; false none

import numpy as np
import jax
import jax.numpy as jnp

# Define a very simple multilayer perceptron (MLP) model in pure JAX
def mlp(layers, x):
  for w in layers[:-1]:
    x = jax.nn.relu(x @ w)
  return x @ layers[-1]

# Define some inputs using numpy so that they live on the CPU. Note that we
# use the float32 data type here because that's JAX's default precision
n = 128
batch_np = np.ones((1024, n), dtype=np.float32)
layers_np = []
for dim in [4, 8, 12]:
  layers_np.append(np.ones((n, dim), dtype=np.float32))
  n = dim
# %%
%time layers_jax, batch_jax = jax.device_put((layers_np, batch_np))
# %%
%timeit jax.jit(mlp).lower(layers_jax, batch_jax).compile()
# %%
%timeit jax.block_until_ready(jax.jit(mlp)(layers_jax, batch_jax))
# %%
compiled_mlp = jax.jit(mlp)
_ = jax.block_until_ready(compiled_mlp(layers_jax, batch_jax))
# %%
%timeit jax.block_until_ready(compiled_mlp(layers_jax, batch_jax))
# %%
with jax.profiler.trace("/tmp/jax-trace", create_perfetto_link=True):
  jax.block_until_ready(compiled_mlp(layers_jax, batch_jax))
# %%
with jax.profiler.trace("/tmp/tensorboard"):
  for n in range(500):
    jax.block_until_ready(compiled_mlp(layers_jax, batch_jax))
