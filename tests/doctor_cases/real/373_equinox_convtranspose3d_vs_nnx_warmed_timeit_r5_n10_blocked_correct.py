# source: https://github.com/patrick-kidger/equinox/issues/1041
# title: Performance Issue with ConvTranspose (vs. Flax): a 3-D `eqx.nn.ConvTranspose` under `eqx.filter_jit` and `eqx.filter_vmap` against Flax NNX's `nnx.ConvTranspose` under `nnx.jit` on a (4, 4, 256, 256, 256) batch, each warmed by a printed, waited call and then timed with `%timeit -r5 -n10` of a blocked call: 138 ms against 31 ms
# established-by: maintainer jax-ml (a gap of the same kind is open at jax-ml/jax#31662, 'Performance Issue with ConvTranpose3D (32x slower than Torch)', labelled `bug` by the JAX team, where Artur-Galstyan calls it 'more of an XLA issue than a JAX issue'; this reporter, ZagButNoZig, carried it to openxla/xla#34273, labelled `err:performance`: XLA chooses a suboptimal convolution; the Equinox issue itself is labelled `question` and closed)
# cause: Correct benchmark code; the slowness it measures is XLA's, not the measurement's. Equinox's transposed convolution works channel-first (NCDHW), while the Flax side swaps the channel axis last inside its jitted function, and the reporter's own follow-up points at NVIDIA's advice to use the channel-last layout; the reporter later carried the same transposed-convolution gap to XLA as a convolution-algorithm problem (see established-by; the replies in the Equinox thread itself could not be read here). The timing is sound: both jitted functions are called once and waited for (`.block_until_ready()` inside the two `print`s) before any timing, so `%timeit -r5 -n10`, which skips the calibration runs that would otherwise absorb a compile, times warm calls only (case 315's reading); every timed call ends in `.block_until_ready()`; `jx` is made on the device by `jnp.zeros` before the timing, the same float32 array for both sides; the modules passed as arguments are the same objects on every call, so neither jit traces again. A correct doctor stays quiet. Code: the issue's program as posted, then its two `%timeit` lines as two cells (their printed results left out).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 35efc1f 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# %%
import equinox as eqx
import jax
import jax.numpy as jnp
import flax.nnx as nnx

jax_key = jax.random.key(0)

ju = eqx.nn.ConvTranspose(
    num_spatial_dims=3,
    in_channels=4,
    out_channels=4,
    kernel_size=3,
    padding=1,
    key=jax_key,
)
fu = nnx.ConvTranspose(
    in_features=4, out_features=4, kernel_size=3, rngs=nnx.Rngs(0), padding=1,
)
jx = jnp.zeros((4, 4, 256, 256, 256))

@eqx.filter_jit
def inf_jax(ju, x):
    return eqx.filter_vmap(ju)(x)

@nnx.jit
def inf_flax(fu, x):
    x = jnp.swapaxes(x, 1, -1)
    return nnx.vmap(fu)(x)


print(inf_jax(ju, jx).block_until_ready().shape)
print(inf_flax(fu, jx).block_until_ready().shape)

# %%
%timeit -r5 -n10 inf_jax(ju, jx).block_until_ready()

# %%
%timeit -r5 -n10 inf_flax(fu, jx).block_until_ready()
