# source: https://github.com/jax-ml/jax/issues/19654
# title: jax_disable_jit does not disable jit for library functions, but does disable compilation caching
# established-by: maintainer jakevdp
# cause: With jax_disable_jit on, the whole training step (grad, the optax update, apply_updates) runs eagerly, one primitive at a time, and each primitive is still compiled on its own (documented in jax-ml/jax#19665, which addresses this issue); the log the user posted shows jit(sqrt), jit(div), integer_pow ... compiled one by one inside the loop.
# static: LB114
# dynamic: LB290
# inferred: LB114 (the thread is about jax_disable_jit; the loop runs grad and the optax update op by op at module level, with no jit around them, which is LB114's pattern)
# lines: LB114:24/26/27/28

import jax
jax.config.update('jax_disable_jit', True)
import jax.numpy as jnp
import optax

x = jnp.ones(3)

def loss(x_):
    return jnp.sum(x_**2)

optimizer = optax.adam(1e-2)
opt_state = optimizer.init(x)
loss_vg = jax.grad(loss)
iterations = 500
for i in range(5):
    print('======', i, '======')
    grads = loss_vg(x)
    updates, opt_state = optimizer.update(grads, opt_state)
    x = optax.apply_updates(x, updates)
