# source: https://github.com/jax-ml/jax/issues/34912
# title: Consistently lower argsort to CUB for all primitive data types
# established-by: answer by the author jstuecker (his timing on an A100 with jax 0.8.2 and CUDA 12.9: int32 argsort compiles in 0.038 s and runs in 0.062 s, int64 in 3.4 s and 5.3 s; his reading, not confirmed in the thread as stored, is that int32 lowers to a CUB radix sort and int64 does not; the issue is open, labelled enhancement and XLA)
# cause: Correct timing code: compilation is measured apart and on purpose, through `.lower(indices).compile()` of each jitted argsort, once each (the compile time is one of the two figures it reports); execution is then timed as ten calls that each wait with `jax.block_until_ready`, averaged, with `perf_counter`. The call after the ahead-of-time compile does not compile again (checked on jax 0.10.2 with `jax_log_compiles`: `f.lower(x).compile()` followed by `f(x)` logs one compilation). The factor of 100 between the int32 and int64 sorts is in the program XLA emits for a 64-bit key on GPU, which no code in the catalogue names. Code: the snippet as posted, its printed output dropped.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f3b9bd0 2026-12-05 py: found none; missed none; false none | notebook: found none; missed none; false none

import time
import jax
import jax.numpy as jnp

@jax.jit
def argsort64(indices):
    with jax.enable_x64():
        return jnp.argsort(indices.astype(jnp.int64))

@jax.jit
def argsort32(indices):
    return jnp.argsort(indices)

indices = jax.random.randint(jax.random.key(0), 1024**3, 0, 1024)

t0 = time.perf_counter()
argsort32.lower(indices).compile()
t1 = time.perf_counter()
argsort64.lower(indices).compile()
t2 = time.perf_counter()
for i in range(10):
    jax.block_until_ready(argsort32(indices))
t3 = time.perf_counter()
for i in range(10):
    jax.block_until_ready(argsort64(indices))
t4 = time.perf_counter()

print(f"argsort32: compile:{t1-t0:.3f} run:{(t3-t2)/10.:.3f}")
print(f"argsort64: compile:{t2-t1:.3f} run:{(t4-t3)/10.:.3f}")
