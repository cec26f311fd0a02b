# source: https://github.com/jax-ml/jax/issues/470
# title: jax.random does not respect its dtype argument if `jax_enable_x64` is not set
# established-by: maintainer hawkinsp
# cause: Without jax_enable_x64, JAX squashes the requested float64 to float32; the flag has to be set before use.
# static: LB108
# dynamic: LB231
# inferred: none
# lines: LB108:10

x = random.uniform(random.PRNGKey(0), (1000,), dtype="float64")
x.dtype  # return float32
