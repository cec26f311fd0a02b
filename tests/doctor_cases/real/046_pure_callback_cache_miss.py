# source: https://github.com/jax-ml/jax/issues/31319
# title: `cache_miss` caused by `jax.pure_callback`, silent recompilation
# established-by: maintainer jakevdp (fix in https://github.com/jax-ml/jax/pull/31341, "Avoid cache miss when using pure_callback", whose regression test calls the jitted pure_callback on jnp.arange(5.0))
# cause: The jitted f calls back into NumPy on the host through jax.pure_callback; the callback made every call of f leave jit's fast C++ dispatch path (a cache miss each call), an order of magnitude slower, until JAX's fix. The host round trip itself remains on every call.
# static: none
# dynamic: LB251
# inferred: none
# lines: none

import jax
import jax.numpy as jnp
import numpy as np

jax.print_environment_info()


def f_host(x):
    # call a numpy (not jax.numpy) operation:
    return np.sin(x).astype(x.dtype)


@jax.jit
def f(x):
    result_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(f_host, result_shape, x, vmap_method="sequential")

# (the report's MRE continues with the input, `x = jnp.arange(...`, cut off in the copy read here)
