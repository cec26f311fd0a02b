"""A Flax GRU over a sequence, the right way: lax.scan under jit, warmed up, blocked, repeated."""

import timeit

import flax.linen as nn
import jax
import jax.numpy as jnp

hidden, features, steps, batch = 32, 6, 50, 8
cell = nn.GRUCell(features=hidden)
key = jax.random.PRNGKey(0)
xs = jax.random.normal(key, (steps, batch, features))
h0 = jnp.zeros((batch, hidden))
params = cell.init(key, h0, xs[0])


@jax.jit
def forward(params, h, xs):
    def step(h, x):
        h, y = cell.apply(params, h, x)
        return h, y

    h, ys = jax.lax.scan(step, h, xs)
    return ys


rnn = nn.RNN(nn.GRUCell(features=hidden), time_major=True)
rnn_params = rnn.init(key, xs)
forward_rnn = jax.jit(rnn.apply)

forward(params, h0, xs).block_until_ready()  # warm-up: compiles
forward_rnn(rnn_params, xs).block_until_ready()

scan_times = timeit.repeat(lambda: forward(params, h0, xs).block_until_ready(), number=10, repeat=5)
rnn_times = timeit.repeat(lambda: jax.block_until_ready(forward_rnn(rnn_params, xs)), number=10, repeat=5)
print(f"lax.scan GRU: {min(scan_times) / 10 * 1e3:.3f} ms, flax.linen.RNN: {min(rnn_times) / 10 * 1e3:.3f} ms")
