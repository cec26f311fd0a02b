"""levelbench does the timing: warm-up, blocking and statistics are its job, so nothing here to flag."""

import jax
import jax.numpy as jnp
import numpy as np

import levelbench

x_np = np.random.default_rng(0).standard_normal((128, 128)).astype(np.float32)
y_np = np.random.default_rng(1).standard_normal((128, 128)).astype(np.float32)
x, y = jax.device_put(x_np), jax.device_put(y_np)


@jax.jit
def matmul(x, y):
    return jnp.matmul(x, y)


print(levelbench.measure(matmul, x, y, budget=0.2))
print(levelbench.compare({"jax": (matmul, (x, y)), "numpy": (np.matmul, (x_np, y_np))}, budget=0.2))
