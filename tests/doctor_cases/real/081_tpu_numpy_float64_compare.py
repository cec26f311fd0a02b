# source: https://github.com/jax-ml/jax/issues/9973
# title: TPU cannot do simple arithmetic!
# established-by: maintainer tomhennigan
# cause: Not an arithmetic bug: the NumPy reference multiplies float64 arrays, while JAX, with jax_enable_x64 off, turns the float64 NumPy arrays given to np.asarray into float32 (the first of the two 'sharp bits' the maintainer pointed to), so the products differ beyond allclose's tolerance. The float64 request is implicit: float64 NumPy arrays converted to JAX arrays, no dtype written.
# static: LB108
# dynamic: LB230
# inferred: none
# lines: LB108:22/23
# first-sight: 7299de2 2026-12-02 py: found none; missed LB108:22/23; false none | notebook: found none; missed LB108:22/23; false none

import jax.numpy as np
import numpy as onp

# On CPU
x = onp.array([[0.3744, 0.1656],
               [0.4707, 0.1663]])
y = onp.array([[0.3946, 0.1186],
               [0.1569, 0.3145]])
z = onp.dot(x, y)

# On TPU
x_ = np.asarray(x)
y_ = np.asarray(y)
z_ = np.dot(x_, y_)

print('JAX device:', x_.device())

# Compare
print('CPU result:', z)
print('TPU result:', z_)
assert np.allclose(z, z_)
