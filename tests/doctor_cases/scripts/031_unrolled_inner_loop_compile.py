# case: real/031_unrolled_inner_loop_compile.py
# form: ipython
# causes: LB103:46/49, LB102:46/49
# changed: range(1, 5) instead of range(1, 9) in both loops
# note: each %time sample calls sample with a new static n, so every sample contains a compilation (LB103) and none waits for the result (LB102)

import functools
import jax
import jax.numpy as jnp

num_obs = 8

@jax.jit
def inner_loop(key, ra, rb):
  gate_shape = (num_obs, 1, 1, 1)
  key, shard = jax.random.split(key)

  gate_forward = jax.random.uniform(
      shard, gate_shape, dtype=jnp.float32, minval=0.0, maxval=1.0)

  gate_forward = gate_forward.reshape([-1, 1])
  new_ra = 0.5 * (ra + gate_forward * ra + (1 - gate_forward) * rb)
  new_rb = 0.5 * (rb + gate_forward * ra + (1 - gate_forward) * rb)
  ra = new_ra
  rb = new_rb
  return key, ra, rb

@functools.partial(jax.jit, static_argnums=[1, 2])
def sample(key, n, scan=False):

  ra = jnp.array([[1.0, 0.0] for _ in range(num_obs)])
  rb = jnp.array([[0.0, 1.0] for _ in range(num_obs)])

  if scan:
    (key, ra, rb), () = jax.lax.scan(
        lambda c, _: (inner_loop(*c), ()),
        (key, ra, rb), (), length=n)
  else:
    for _ in range(n):
      key, ra, rb = inner_loop(key, ra, rb)

  return ra

print('scan=True')
for i in range(1, 5):
  %time _ = sample(jax.random.PRNGKey(1), i, True)
print('scan=False')
for i in range(1, 5):
  %time _ = sample(jax.random.PRNGKey(1), i, False)
