# source: https://github.com/rahulkumar-aws/macbook_gpu_ML_code/blob/e1945190ef68f2acd8f1e6c05eeb26e2fed76ef2/jax.ipynb
# title: rahulkumar-aws/macbook_gpu_ML_code's 'JAX Code example' notebook: two 10000x10000 float32 uniform matrices on Apple's experimental METAL backend (M1), their elementwise product `x * y` timed with a `%%timeit` cell and no wait; stored output 24.2 ms per loop
# established-by: maintainer rahulkumar-aws (the notebook's author; the stored output is the figure the repository's MacBook GPU comparison records)
# cause: The `%%timeit` cell times `x * y`, an eager JAX operation whose result is never waited for (LB102 at the cell's body; JAX dispatches asynchronously, on the Metal plugin as on other backends, so the figure is dispatch plus whatever part of the 400 MB product finishes before the next loop's dispatch queues behind it). Not labelled: `x` and `y` are JAX arrays made before the cell (no LB115); `%%timeit` calibrates before its reported loops, so the multiply's first-use compile stays out (no LB103); one eager operation is not a loop of dispatches (no LB114). The first cell sets `JAX_PLATFORMS=cpu`, but its stored execution count (3) is later than the import cell's (2) and the next cell comments the line out: the run recorded used METAL, as its stderr shows. Code: the notebook's code cells at commit e194519, unchanged; its one markdown cell is left out.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the `%%timeit` body never waits for the eager product; not discussed)
# lines: LB102:37
# first-sight: d481e6f 2026-12-06 py: found none; missed LB102:37; false none | notebook: found none; missed LB102:37; false none

# %%
import os

os.environ["JAX_PLATFORMS"] = "cpu"

# %%
import os

# os.environ["JAX_PLATFORMS"] = "cpu"

# %%
import jax
import jax.numpy as jnp


def create_jax_tensors():
    x = jax.random.uniform(jax.random.PRNGKey(0), (10000, 10000), dtype=jnp.float32)
    y = jax.random.uniform(jax.random.PRNGKey(1), (10000, 10000), dtype=jnp.float32)

    return x, y


x, y = create_jax_tensors()

# %%
%%timeit
x * y
