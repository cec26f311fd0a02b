# source: https://github.com/pymc-devs/pymc/issues/6550
# title: BUG: sample_blackjax_nuts incorrectly reports sampling time
# established-by: maintainer ricardoV94 (accepting the author dehorsley's diagnosis on pymc-devs/pymc#6551: 'We decided to add the block_until_ready', done in #6963)
# cause: The 'Sampling time' that pymc prints is measured inside `sample_blackjax_nuts`, whose clock stops as soon as the sampling work is queued; the sampling finishes during the next phase, so most of it is reported as 'Transformation time' (2.5 minutes against 10 seconds here) and the sampling looks fast and the transformation slow. The fault is in the library's timing, not in the posted script, which times nothing itself: a correct static doctor has nothing to report on the script as posted. Code: the reproducing snippet as posted.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 58b08e8 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

import pymc as pm
from pymc.sampling.jax import sample_blackjax_nuts
import numpy as np

x = np.random.normal(0, 1, 1_000_000)
with pm.Model() as model:
    sigma = pm.HalfCauchy("sigma", 1)
    mu = pm.Normal("mu", 0, 1)
    pm.Normal("x", mu, sigma, observed=x)
    trace_blackjax = sample_blackjax_nuts()
