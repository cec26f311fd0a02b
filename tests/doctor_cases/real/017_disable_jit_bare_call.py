# source: https://github.com/jax-ml/jax/issues/25701
# title: Get "invalid value (nan) encountered in jit" even when jit disabled globally
# established-by: maintainer mattjj
# cause: jax.disable_jit is a context manager: calling it bare does not disable jit, so jnp.log still ran as a jitted primitive and debug_nans reported it as such.
# static: none
# dynamic: LB291
# inferred: LB291 (debug_nans is on; checked on jax 0.10.2 that the bare disable_jit(True) call leaves jax_disable_jit False, so no disable-jit finding is expected)
# lines: none

import jax
jax.disable_jit(True)
jax.config.update('jax_platform_name', 'cpu')
jax.config.update("jax_debug_nans", True)
import jax.numpy as jnp
jnp.log(-10)
