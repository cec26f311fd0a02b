# source: https://jax-ml.github.io/scaling-book/jax-stuff/
# title: 'How to Scale Your Model' (Google DeepMind), Part 10 'Programming TPUs in JAX': a sharded matmul compiled ahead of time, a `with_sharding_constraint` example, `shard_map` slicing and a collective matmul written with `ppermute` in a `fori_loop`, benchmarked against the default jitted matmul from profiles (311 us against 244 us)
# established-by: maintainer jax-ml (the book's own chapter, jax-ml/scaling-book, jax-stuff.md; the timings quoted are from linked XProf profiles, not from the code)
# cause: Correct code for what the catalogue checks: the chapter's speed claims (the collective matmul at 244 us against 311 us for the default sharded matmul, 224 us unsharded) come from profiles it links, and the code on the page reads no clock (the reading of 215 and 237, files that time nothing). The sharded `matmul_square` is compiled once ahead of time with `.lower(In, W).compile()` and called once; `jit_sharded_f = jax.jit(shard_map(...))` is built once at module level and called once, untimed (no LB111: not in a loop, a repeated function or a timed statement); the collective matmul's loop over chunks is a `jax.lax.fori_loop` (unrolled by request, `unroll=True`, inside the compiled program), and the list comprehension building the `ppermute` permutation produces Python integers, not JAX work (no LB106). `jax.experimental.shard_map` still imports on jax 0.10.2, with a deprecation warning (no LB113). The inputs are made with `jnp` and placed with `jax.device_put` before any call (no LB115). A correct doctor stays quiet. Code: the chapter's Python blocks from the 'jax.jit' section on, in order, one `# %%` cell each (the HLO listing, the prose and the worked problems, which hold no code, left out).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 858cce0 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# %%
import jax
import jax.numpy as jnp
import jax.sharding as shd

# Running on a VLP=2x2. This assigns names to the two physical axes of the hardware.
mesh = jax.make_mesh(axis_shapes=(2, 2), axis_names=('X', 'Y'))
def P(*args):
  return shd.NamedSharding(mesh, shd.PartitionSpec(*args))

# We create a matrix W and input activations In sharded across our devices.
In = jnp.zeros((8, 2048), dtype=jnp.bfloat16, device=P('X', 'Y'))
W = jnp.zeros((2048, 8192), dtype=jnp.bfloat16, device=P('Y', None))

def matmul_square(In, W):
  return jnp.einsum('bd,df->bf', jnp.square(In), W)

# We can explicitly compile the sharded matmul function here. This adds all the
# necessary comms (e.g. an AllReduce after the matmul).
jit_matmul = jax.jit(matmul_square, out_shardings=P('X', None)).lower(In, W).compile()

out = jit_matmul(In, W)

# %%
import jax
import jax.numpy as jnp

def matmul(Wout, Win, x):
  hidden = jnp.einsum('fd,bd->bf', Win, x)
  hidden = jax.lax.with_sharding_constraint(hidden, P('x', 'y'))
  return jnp.einsum('df,bf->bd', Wout, hidden)

# %%
import jax
import jax.numpy as jnp
import jax.lax
import jax.sharding as shd

from jax.experimental.shard_map import shard_map as shmap

P = shd.PartitionSpec
mesh = jax.make_mesh(axis_shapes=(2,4), axis_names=('x','y'))

x = jnp.arange(0, 512, dtype=jnp.int32, device=jax.NamedSharding(mesh, P(('x', 'y'))))

# This function will operate on 1/8th of the array.
def slice_and_average(x):
  assert x.shape == (512 // 8,)
  return jax.lax.pmean(x[:4], axis_name=('x', 'y'))

out = shmap(slice_and_average, mesh, in_specs=P(('x', 'y')), out_specs=P(None,))(x)
assert out.shape == (4,)

# %%
import functools

import jax
import jax.numpy as jnp
import jax.sharding as shd
import numpy as np

from jax.experimental.shard_map import shard_map

mesh = jax.make_mesh(axis_shapes=(2, 4), axis_names=('X', 'Y'))
def P(*args):
  return shd.NamedSharding(mesh, shd.PartitionSpec(*args))

B, D, F = 1024, 2048, 8192
A = jnp.arange(np.prod((B, D))).reshape((B, D))
W = jnp.arange(np.prod((D, F))).reshape((D, F))

A = jax.device_put(A, P('X', 'Y'))
W = jax.device_put(W, P(None, 'Y'))

@functools.partial(jax.jit, out_shardings=P('X', 'Y'))
def matmul(lhs, rhs):
  return lhs @ rhs

def collective_matmul_allgather_lhs_contracting(lhs, rhs):
  # lhs is the looped operand; rhs is the local operand
  axis_size = jax.lax.psum(1, axis_name='Y')  # axis_size = 4 for this example
 
  chunk_size = lhs.shape[1]
  assert rhs.shape[0] % chunk_size == 0

  def f(i, carrys):
    accum, lhs = carrys
    rhs_chunk = jax.lax.dynamic_slice_in_dim(rhs, i * chunk_size, chunk_size)
    # matmul for a chunk
    update = lhs @ rhs_chunk
    # circular shift to the left
    lhs = jax.lax.ppermute(
        lhs,
        axis_name='Y',
        perm=[(j, (j - 1) % axis_size) for j in range(axis_size)]
    )
    return accum + update, lhs

  accum = jnp.zeros((lhs.shape[0], rhs.shape[1]), dtype=lhs.dtype)
  accum, lhs = jax.lax.fori_loop(0, axis_size - 1, f, (accum, lhs), unroll=True)

  # compute the last chunk after the final permute,
  # to leave lhs in the state we found it
  i = axis_size - 1
  rhs_chunk = jax.lax.dynamic_slice_in_dim(rhs, i * chunk_size, chunk_size)
  update = lhs @ rhs_chunk
  return accum + update

jit_sharded_f = jax.jit(shard_map(
  collective_matmul_allgather_lhs_contracting, mesh,
  in_specs=(shd.PartitionSpec('X', 'Y'), shd.PartitionSpec(None, 'Y')), out_specs=shd.PartitionSpec('X', 'Y')))

shmapped_out = jit_sharded_f(A, W)
expected_out = matmul(A, W)

np.testing.assert_array_equal(shmapped_out, expected_out)
