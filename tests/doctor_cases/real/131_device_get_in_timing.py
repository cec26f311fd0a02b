# source: https://github.com/QuantEcon/lecture-jax/issues/217
# title: block until ready
# established-by: maintainer HumphreyYang
# cause: Ending the timing with jax.device_get instead of block_until_ready also copies the result from the device to host memory, so the measured time includes the transfer (the maintainer's side-by-side timings differed markedly).
# static: LB115, LB105, LB104
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock; the thread did not discuss it), LB104 (one time.time() sample of one call of jnp.cos; the thread did not discuss it)
# lines: LB115:13, LB105:11, LB104:12
# first-sight: 43b52af 2026-12-02 py: found LB105:11 LB104:12 LB115:13; missed none; false none | notebook: found LB105:11 LB104:12 LB115:13; missed none; false none

start = time.time()
result2 = jnp.cos(X)
jax.device_get(result2)  # Force execution completion
second_time = time.time() - start
