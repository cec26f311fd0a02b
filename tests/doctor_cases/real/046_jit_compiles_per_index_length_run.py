# source: https://github.com/jax-ml/jax/issues/15761
# explain: some_func
# dynamic: LB211
# Runnable copy of 046_jit_compiles_per_index_length.py for levelbench.explain: the posted function,
# called with the posted sequence of index arrays (some_func_calls).

import jax
import jax.numpy as jnp


# A dummy function
@jax.jit
def some_func(vec, indices):
    out = jnp.zeros(len(indices))

    for idx, j in enumerate(indices):
        out_j = vec[j]
        out = out.at[idx].set(out_j)

    return out


x = jnp.ones(20)


def some_func_args():
    return (x, jnp.arange(10))


def some_func_calls():
    return [(x, jnp.arange(n_indices)) for n_indices in [5, 8, 10, 10, 10]]
