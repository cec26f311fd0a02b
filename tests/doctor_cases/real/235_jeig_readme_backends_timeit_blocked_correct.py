# source: https://github.com/mfschubert/jeig/blob/0f148cd5e8380852f296714b6c33403d821d3c6a/README.md
# title: jeig README, 'Example usage': `%timeit` of one batched eigendecomposition through five backends (jax, magma, numpy, scipy, torch)
# established-by: maintainer mfschubert (the package's README and its speed comparison, jax 0.4.37 on a 28-core Xeon w7-3465X with an RTX 4090)
# cause: Correct timing code: each `%timeit` statement waits for the eigendecomposition with `jax.block_until_ready`, and with no `-n` the calibration run that `%timeit` makes first (one loop, since each call takes seconds) absorbs each backend's first-call costs (compilation, the host callback's setup, PyTorch's initialisation) before the seven reported runs (the posted '7 runs, 1 loop each'), as in case 175. The same 16x1024x1024 device array goes to every backend, so the five figures compare the backends on one input. Code: the README's example block (v0.2.2) as posted, its printed output dropped.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f3b9bd0 2026-12-05 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
import jeig

matrix = jax.random.normal(jax.random.PRNGKey(0), (16, 1024, 1024))

%timeit jax.block_until_ready(jeig.eig(matrix, backend="jax"))

%timeit jax.block_until_ready(jeig.eig(matrix, backend="magma"))

%timeit jax.block_until_ready(jeig.eig(matrix, backend="numpy"))

%timeit jax.block_until_ready(jeig.eig(matrix, backend="scipy"))

%timeit jax.block_until_ready(jeig.eig(matrix, backend="torch"))
