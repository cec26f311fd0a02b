# source: https://github.com/mkolodziejczyk-piap/mppic/blob/c964a007930a8ea417c302415060211ac695c021/jax_benchmark.py
# title: mppic's `jax_benchmark.py` (a model-predictive path-integral controller's cost experiments): point-to-segment distances for 1,000 trajectories of 20 points against 20 reference segments, a `jax.jit(jax.vmap(dist_fn))` over the tiled arrays timed five times with `time.time()` and `block_until_ready`, then the same `dist_fn` called eagerly in three nested Python loops, timed five times, each figure printed as 'optimization time'
# established-by: maintainer mkolodziejczyk-piap (the repository author's own benchmark script; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. The jitted, vmapped distance function is built just before the first loop and first called inside its first pass, so the first printed 'optimization time' holds its trace and XLA compile (LB103 at the call, the reading of 383 and 368 for a jitted function first called in the first pass of a printed timing loop; nothing in the file says the first figure is the compile). Every interval is read with `time.time()` (LB105 at the two start reads). The second loop calls `dist_fn` eagerly 400,000 times per pass and drops every result: nothing waits for the last distances before `time.time()` is read again (LB102 at the dropped call; indexing `trajectories[i * j]` and `segments[k]` returns JAX arrays and does not wait either). Not labelled: the eager triple loop is the per-point baseline the script sets against the vmapped, jitted version of the same `dist_fn` on the same data, the comparison's baseline rather than dispatch to report (no LB114, the reading of 242 and 248 and of mend41's eager half of a comparison with jit); each pass's figure is printed on every pass (no LB104, the reading of 223); the eager operations' first-use compiles fall in the second loop's first printed pass, JAX's own functions cold, which a per-pass print shows the reader (no LB103, 197's reading). Code: the file as stored at commit c964a00, unchanged.
# static: LB103, LB105, LB102
# dynamic: n/a
# inferred: LB103 (the jitted, vmapped function's first call is timed in the first printed pass; not discussed), LB105 (`time.time()` as the interval clock; not discussed), LB102 (the eager loop's dropped results are never waited for before the end read; not discussed)
# lines: LB103:41, LB105:39/50, LB102:57
# first-sight: cd05d1a 2026-12-07 py: found LB105:39 LB103:41 LB105:50 LB102:57; missed none; false LB114:53 LB114:57 | notebook: found LB105:39 LB103:41 LB105:50 LB102:57; missed none; false LB114:53 LB114:57

import time

import jax
import jax.numpy as jnp


trajectories_count = 1000
trajectories_points_count = 20
reference_segments_count = 20

key = jax.random.PRNGKey(0)
grid = jax.random.normal(key, shape=(10, 10))

trajectories = jax.random.normal(key, (trajectories_count * trajectories_points_count, 1, 2))

segments = jax.random.normal(key, (reference_segments_count, 2))

trajectories_tiled = jnp.reshape(jnp.tile(trajectories, (1, reference_segments_count, 1)), (trajectories_count * trajectories_points_count * reference_segments_count, 2))

segments_tiled = jnp.reshape(jnp.tile(segments, (trajectories_count * trajectories_points_count, 1, 1)), (trajectories_count * trajectories_points_count * reference_segments_count, 2))

def dist_fn(point, segment):
  return jnp.linalg.norm(point-segment)

vj_dist_fn = jax.jit(jax.vmap(dist_fn))

for i in range(5):

    tic = time.time()

    d = vj_dist_fn(trajectories_tiled, segments_tiled)
    d.block_until_ready()

    opt_time = time.time() - tic

    print("optimization time {:0.6f} sec".format(opt_time))

for i in range(5):

    tic = time.time()

    for i in range(trajectories_count):
      for j in range(trajectories_points_count):
        point = trajectories[i * j]
        for k in range(reference_segments_count):
          segment = segments[k]
          dist_fn(point, segment)

    opt_time = time.time() - tic

    print("optimization time {:0.6f} sec".format(opt_time))
