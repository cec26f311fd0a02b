# source: https://github.com/ahmadsalim/numpyro/blob/e64225ef258b0c86e3d611ed6e251175dee886e4/.benchmarks/sine_dist.py
# title: ahmadsalim/numpyro `.benchmarks/sine_dist.py`: the fork's bivariate `Sine` distribution sampled on the GPU at eleven sample sizes, eleven `time()` readings per size around `sine.sample(...)`, none of them waiting for the samples
# established-by: maintainer ahmadsalim (a benchmark script in the ahmadsalim fork of NumPyro, beside the fork's new `Sine` and `SineSkewed` distributions)
# cause: Each reading stops the clock as soon as `sine.sample(sample_key, (samples,))` returns, and nothing waits for `data`. The fork's `Sine.sample` (numpyro/distributions/directional.py at the same commit) does read one value on the host midway, `if not jnp.all(phi_state.done)`, which waits for its rejection loop over the first angle; but the second angle's `VonMises(...).sample(psi_key)`, itself a rejection sampler, and the final transforms are dispatched after that read and returned unwaited, so on the GPU each reading, up to nearly ten million draws per call, stops before the sample it reports is ready (LB102, at the timed call). The intervals are read with `time()` imported from `time`, the wall clock (LB105, at the start read). The eleven readings per size are a timer's repetition of one call, its first reading kept apart on purpose (`times[:1]`, though stored under the swapped name `after_timings`), so no LB104; the repeated eager `sample` is the benchmark's subject, the library call as a user makes it, timed by repetition (cases 242 and 300: no LB114); and the sizes change on purpose across the outer loop, a sweep (case 213), with no function of the file's own jitted (no LB117). No issue discusses the script; the readings are the catalogue's. Code: the file as stored at commit e64225e, unchanged.
# static: LB102, LB105
# dynamic: n/a
# inferred: LB102 (the sampled `data` is never waited for; not discussed), LB105 (`time()` as the interval clock; not discussed)
# lines: LB102:38, LB105:37
# first-sight: f5b8aeb 2026-12-06 py: found LB105:37; missed LB102:38; false LB114:35 | notebook: found LB105:37; missed LB102:38; false LB114:35

from time import time

import jax.numpy as jnp
# https://pytorch.org/tutorials/recipes/recipes/benchmark.html
from jax import random

from numpyro import set_platform
from numpyro.distributions import Sine, SineSkewed

if __name__ == '__main__':
    set_platform('gpu')

    loc = jnp.array([0.])
    conc = jnp.array([1.])
    corr = jnp.array([.6])
    sine = Sine(loc, loc, conc, conc, corr)
    skewness = jnp.array([.3, -.2])
    ss = SineSkewed(sine, skewness)
    key = random.PRNGKey(0)
    first_timings = []
    after_timings = []
    for samples in [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 5 * 1953125]:
        times = []
        print(samples)
        for _ in range(11):
            key, sample_key = random.split(key)
            start = time()
            data = sine.sample(sample_key, (samples,))
            times.append(time() - start)
        first_timings.append(times[1:])
        after_timings.append(times[:1])
    print(first_timings)
    print(after_timings)
