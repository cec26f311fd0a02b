# source: https://github.com/jax-ml/jax/issues/1333
# title: jax.numpy.ones and jax.numpy.zeros always yield float32 dtypes
# established-by: maintainer mattjj
# cause: JAX computes in 32 bits unless jax_enable_x64 (or JAX_ENABLE_X64=1) is set at startup, so the explicitly requested float64 is silently truncated to float32; a warning for this was being added at the time.
# static: LB108
# dynamic: LB231
# inferred: none
# lines: LB108:11
# first-sight: 43b52af 2026-12-02 py: found LB108:11; missed none; false none | notebook: found LB108:11; missed none; false none

a = jax.numpy.ones((2,2), dtype=np.float64)
print(a.dtype) #float32, I would expect float64
