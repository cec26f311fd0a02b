# source: https://docs.jax.dev/en/latest/101/default_dtypes.html
# title: Default dtypes and the X64 flag
# established-by: maintainer jax-ml (official JAX documentation)
# cause: With jax_enable_x64 off (the default) JAX cannot create 64-bit arrays at all: the float64 asked of jnp.arange is truncated to float32 with a UserWarning; set jax_enable_x64 (or JAX_ENABLE_X64=1) at startup to get it. Code: the page's doctest inputs, their printed outputs dropped.
# static: LB108
# dynamic: LB231
# inferred: none
# lines: LB108:19
# first-sight: 43b52af 2026-12-02 py: found none; missed LB108:19; false LB100:11 | notebook: found LB108:19; missed none; false none

>>> import jax.numpy as jnp
# %%
>>> jnp.arange(5)
# %%
>>> jnp.zeros(5)
# %%
>>> jnp.ones(5, dtype=int)
# %%
>>> jnp.arange(5, dtype='float64')  # doctest: +SKIP
