# source: https://jax-ml.github.io/scaling-book/profiling/
# title: 'How to Scale Your Model' (Austin, Douglas, Chen, Levskaya et al., Google DeepMind), Part 9 'How to Profile TPU Programs': a jitted einsum, a `jax.profiler.trace` block around a random matmul that ends in `y.block_until_ready()`, and the worked problem's two-matmul model sharded 8 ways and compiled ahead of time with `.lower(...).compile()`
# established-by: maintainer jax-ml (the book's own chapter, jax-ml/scaling-book, profiling.md; its figures are read from the TensorBoard/XProf traces, not from a clock)
# cause: Correct for what the catalogue checks. The chapter measures with the JAX profiler, not a clock: the `with jax.profiler.trace(...)` block ends in `y.block_until_ready()`, so the matmul it records has finished before the trace is closed (no LB102), and a trace's first call is what the profiler is meant to record, compile included, read from the timeline rather than reported as one figure (no LB103, no LB104; the reading of 073, a blocked JAX profiler trace, and 400). Nothing in the code reads a clock. The first cell's `jax.jit(multiply)(...)` is called once, outside any timing and any loop (no LB111); the worked problem compiles its sharded `matmul` ahead of time with `.lower(w1, w2, x).compile()` and calls the executable once, untimed, its 96 ms and 1.13 ms figures read from the profile. `np` is used without an import in the last cell (a name, not an import: no LB113), and the commented TensorBoard lines are comments. A correct doctor stays quiet. Code: the chapter's Python blocks in order, one `# %%` cell each (the HLO listings, fenced `c` and `py` but not Python, and the prose left out).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 858cce0 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# %%
import jax
import jax.numpy as jnp

def multiply(x, y):
  return jnp.einsum('bf,fd->db', x, y)

y = jax.jit(multiply)(jnp.ones((128, 256)), jnp.ones((256, 16), dtype=jnp.bfloat16))

# %%
import jax
with jax.profiler.trace("/tmp/tensorboard"):
  key = jax.random.key(0)
  x = jax.random.normal(key, (1024, 1024))
  y = x @ x
  y.block_until_ready()

# Now you can load TensorBoard in a Google Colab with
#
# !pip install tensorboard-plugin-profile
# %load_ext tensorboard
# %tensorboard --logdir=/tmp/tensorboard
#
# or externally with
#
# > tensorboard --logdir=/tmp/tensorboard
#

# %%
def matmul(w1, w2, x):
  return jnp.einsum('wf,bf->bw', w2, jnp.einsum('fw,bw->bf', w1, x))

# %%
import jax
import jax.numpy as jnp
import jax.sharding as shd

P = shd.PartitionSpec

mesh = shd.Mesh(devices=np.asarray(jax.devices()).reshape(8, 16), axis_names=('x', 'y'))

d_model = 8192
batch = 8
ffw_mult = 4

cpu_device = jax.devices('cpu')[0]

cpu_x = jnp.zeros((batch, d_model), dtype=jnp.bfloat16, device=cpu_device)
cpu_w1 = jnp.zeros((ffw_mult * d_model, d_model), dtype=jnp.bfloat16, device=cpu_device)
cpu_w2 = jnp.zeros((d_model, ffw_mult * d_model), dtype=jnp.bfloat16, device=cpu_device)

def matmul(w1, w2, x):
  return jnp.einsum('wf,bf->bw', w2, jnp.einsum('fw,bw->bf', w1, x))

def make_sharding():
  model_axes = ('x',)
  return (shd.NamedSharding(mesh, P(model_axes, None)),
          shd.NamedSharding(mesh, P(None, model_axes)),
          shd.NamedSharding(mesh, P(None,)))

w1_sharding, w2_sharding, x_sharding = make_sharding()

try:
  del x, w1, w2
except:
  pass

x, w1, w2 = jax.device_put(cpu_x, x_sharding), jax.device_put(cpu_w1, w1_sharding), jax.device_put(cpu_w2, w2_sharding)

jit_matmul = jax.jit(matmul, in_shardings=make_sharding()).lower(w1, w2, x).compile()
result = jit_matmul(w1, w2, x)
