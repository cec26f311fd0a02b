# source: https://github.com/jax-ml/jax/issues/25701
# explain: log
# dynamic: LB291
# Runnable copy of 017_disable_jit_bare_call.py for levelbench.explain: smallest sizes that keep the pattern.

import jax
jax.disable_jit(True)
jax.config.update('jax_platform_name', 'cpu')
jax.config.update("jax_debug_nans", True)
import jax.numpy as jnp

# The issue calls jnp.log(-10); a positive input lets the probes run without
# the debug_nans error, which is what the issue was about, not its cost.
log = jnp.log


def log_args():
    return (10.0,)
