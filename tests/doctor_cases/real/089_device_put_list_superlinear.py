# source: https://github.com/jax-ml/jax/issues/947
# title: `jax.device_put` has complexity superlinear in the number of arguments.
# established-by: maintainer hawkinsp (his report, fixed by his jax-ml/jax#960)
# cause: device_put of a list of arrays built and compiled an XLA computation taking every array as an argument, and XLA compile time grows faster than the number of arguments (1.45 s for 100 arrays, 45 s for 700); jax-ml/jax#960 copies each array to the device directly (34 ms for 700). The timed statements are host-to-device copies, not waited for. Code: the three inputs with their IPython prompts, the printed timings dropped.
# static: LB115, LB102
# dynamic: n/a
# inferred: LB115 (the timed statement copies host arrays to the device, the operation under study), LB102 (device_put returns before the copies finish; the issue did not discuss it)
# lines: LB115:14/16/18, LB102:14/16/18
# first-sight: 7299de2 2026-12-02 py: found LB102:14 LB102:16 LB102:18; missed LB115:14/16/18; false none | notebook: found LB102:14 LB102:16 LB102:18; missed LB115:14/16/18; false none

import jax
import numpy as onp
# %%
In [9]: %time x = jax.device_put([onp.random.randn(10,5) for _ in range(100)])
# %%
In [10]: %time x = jax.device_put([onp.random.randn(10,5) for _ in range(500)])
# %%
In [11]: %time x = jax.device_put([onp.random.randn(10,5) for _ in range(700)])
