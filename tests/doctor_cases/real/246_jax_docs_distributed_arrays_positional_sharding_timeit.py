# source: https://github.com/jax-ml/jax/blob/0302e4c34d59d353daacfe1b38a3ece551552f92/docs/notebooks/Distributed_arrays_and_automatic_parallelization.md
# title: JAX docs, 'Distributed arrays and automatic parallelization' (the `PositionalSharding` version): `%timeit -n 5 -r 5` of sharded against single-device `jnp.sin`, `jnp.dot` and a jitted MLP gradient
# established-by: maintainer jax-ml (official JAX documentation; `PositionalSharding` has since been removed from `jax.sharding`, and the page's later version builds its shardings with `NamedSharding` and `jax.make_mesh`)
# cause: The page times every computation with `%timeit -n 5 -r 5 ... .block_until_ready()`, waiting for each result, and most timed calls ran once before (the sharded `jnp.sin` and `jnp.dot`, the gradient after thirty training steps). Two things are wrong with the code as posted, read on today's JAX. `from jax.sharding import PositionalSharding` fails (the class was removed; jax 0.10.2 here), so the notebook no longer runs, and the page's later version replaces it. And `gradfun(params_single, batch_single)` is the first call of the jitted gradient with single-device arguments: `jax.jit` specializes on the shardings of committed inputs, and every earlier call passed arrays placed over eight devices, so the first of the 25 timed calls traces and compiles the single-device program, with no calibration run (`-n 5 -r 5`) to absorb it (the later version still times it so). The first `jnp.sin(x)` timing pays the first-use compile of JAX's own operation on a single-device array (not LB103, as for case 197). Code: the page's code cells of the opening example, 'Computation follows data sharding' and 'Examples: neural networks', as stored at commit 0302e4c, one cell each; the sections on sharding basics, disagreeing shardings, `with_sharding_constraint` and random numbers dropped (they time nothing), and with them the third `PositionalSharding` import.
# static: LB113, LB103
# dynamic: n/a
# inferred: LB113 (`PositionalSharding` is no name of `jax.sharding` on current JAX, 0.10.2 here, as removed imports are read in cases 167, 175 and 221), LB103 (the single-device call compiles a program for shardings the jitted gradient has not seen; the page does not discuss it)
# lines: LB113:25/46, LB103:137
# first-sight: 12e883c 2026-12-06 py: found LB113:25 LB113:46; missed LB103:137; false LB114:103 | notebook: found LB113:25 LB113:46; missed LB103:137; false LB114:103

import os

import functools
from typing import Optional

import numpy as np

import jax
import jax.numpy as jnp
# %%
if len(jax.local_devices()) < 8:
  raise Exception("Notebook requires 8 devices to run")
# %%
from jax.experimental import mesh_utils
from jax.sharding import PositionalSharding
# %%
# Create a Sharding object to distribute a value across devices:
sharding = PositionalSharding(mesh_utils.create_device_mesh((8,)))
# %%
# Create an array of random values:
x = jax.random.normal(jax.random.key(0), (8192, 8192))
# and use jax.device_put to distribute it across devices:
y = jax.device_put(x, sharding.reshape(4, 2))
jax.debug.visualize_array_sharding(y)
# %%
z = jnp.sin(y)
jax.debug.visualize_array_sharding(z)
# %%
# `x` is present on a single device
%timeit -n 5 -r 5 jnp.sin(x).block_until_ready()
# %%
# `y` is sharded across 8 devices.
%timeit -n 5 -r 5 jnp.sin(y).block_until_ready()
# %%
from jax.experimental import mesh_utils
from jax.sharding import PositionalSharding
sharding = PositionalSharding(mesh_utils.create_device_mesh((8,)))
# %%
x = jax.device_put(x, sharding.reshape(4, 2))
print('input sharding:')
jax.debug.visualize_array_sharding(x)

y = jnp.sin(x)
print('output sharding:')
jax.debug.visualize_array_sharding(y)
# %%
y = jax.device_put(x, sharding.reshape(4, 2).replicate(1))
z = jax.device_put(x, sharding.reshape(4, 2).replicate(0))
print('lhs sharding:')
jax.debug.visualize_array_sharding(y)
print('rhs sharding:')
jax.debug.visualize_array_sharding(z)

w = jnp.dot(y, z)
print('out sharding:')
jax.debug.visualize_array_sharding(w)
# %%
x_single = jax.device_put(x, jax.devices()[0])
jax.debug.visualize_array_sharding(x_single)
# %%
np.allclose(jnp.dot(x_single, x_single),
            jnp.dot(y, z))
# %%
%timeit -n 5 -r 5 jnp.dot(x_single, x_single).block_until_ready()
# %%
%timeit -n 5 -r 5 jnp.dot(y, z).block_until_ready()
# %%
import jax
import jax.numpy as jnp
# %%
def predict(params, inputs):
  for W, b in params:
    outputs = jnp.dot(inputs, W) + b
    inputs = jnp.maximum(outputs, 0)
  return outputs

def loss(params, batch):
  inputs, targets = batch
  predictions = predict(params, inputs)
  return jnp.mean(jnp.sum((predictions - targets)**2, axis=-1))
# %%
loss_jit = jax.jit(loss)
gradfun = jax.jit(jax.grad(loss))
# %%
def init_layer(key, n_in, n_out):
    k1, k2 = jax.random.split(key)
    W = jax.random.normal(k1, (n_in, n_out)) / jnp.sqrt(n_in)
    b = jax.random.normal(k2, (n_out,))
    return W, b

def init_model(key, layer_sizes, batch_size):
    key, *keys = jax.random.split(key, len(layer_sizes))
    params = list(map(init_layer, keys, layer_sizes[:-1], layer_sizes[1:]))

    key, *keys = jax.random.split(key, 3)
    inputs = jax.random.normal(keys[0], (batch_size, layer_sizes[0]))
    targets = jax.random.normal(keys[1], (batch_size, layer_sizes[-1]))

    return params, (inputs, targets)

layer_sizes = [784, 8192, 8192, 8192, 10]
batch_size = 8192

params, batch = init_model(jax.random.key(0), layer_sizes, batch_size)
# %%
sharding = PositionalSharding(jax.devices()).reshape(8, 1)
# %%
batch = jax.device_put(batch, sharding)
params = jax.device_put(params, sharding.replicate())
# %%
loss_jit(params, batch)
# %%
step_size = 1e-5

for _ in range(30):
  grads = gradfun(params, batch)
  params = [(W - step_size * dW, b - step_size * db)
            for (W, b), (dW, db) in zip(params, grads)]

print(loss_jit(params, batch))
# %%
%timeit -n 5 -r 5 gradfun(params, batch)[0][0].block_until_ready()
# %%
batch_single = jax.device_put(batch, jax.devices()[0])
params_single = jax.device_put(params, jax.devices()[0])
# %%
%timeit -n 5 -r 5 gradfun(params_single, batch_single)[0][0].block_until_ready()
# %%
sharding = sharding.reshape(4, 2)
# %%
batch = jax.device_put(batch, sharding.replicate(1))
jax.debug.visualize_array_sharding(batch[0])
jax.debug.visualize_array_sharding(batch[1])
# %%
(W1, b1), (W2, b2), (W3, b3), (W4, b4) = params

W1 = jax.device_put(W1, sharding.replicate())
b1 = jax.device_put(b1, sharding.replicate())

W2 = jax.device_put(W2, sharding.replicate(0))
b2 = jax.device_put(b2, sharding.replicate(0))

W3 = jax.device_put(W3, sharding.replicate(0).T)
b3 = jax.device_put(b3, sharding.replicate())

W4 = jax.device_put(W4, sharding.replicate())
b4 = jax.device_put(b4, sharding.replicate())

params = (W1, b1), (W2, b2), (W3, b3), (W4, b4)
# %%
jax.debug.visualize_array_sharding(W2)
# %%
jax.debug.visualize_array_sharding(W3)
# %%
print(loss_jit(params, batch))
# %%
step_size = 1e-5

for _ in range(30):
    grads = gradfun(params, batch)
    params = [(W - step_size * dW, b - step_size * db)
              for (W, b), (dW, db) in zip(params, grads)]
# %%
print(loss_jit(params, batch))
# %%
(W1, b1), (W2, b2), (W3, b3), (W4, b4) = params
jax.debug.visualize_array_sharding(W2)
jax.debug.visualize_array_sharding(W3)
# %%
%timeit -n 10 -r 10 gradfun(params, batch)[0][0].block_until_ready()
