# source: https://github.com/google/jaxopt/blob/0c1adfedb030761fc68039c131ff113290507ce6/benchmarks/sparse_custom_root.py
# title: jaxopt `benchmarks/sparse_custom_root.py`: the Jacobian of a scikit-learn Lasso solve through `custom_root` and `sparse_custom_root`, each timed once with `time.time()` around decoration, solve and an eager `jax.jacrev`
# established-by: maintainer jaxopt authors (the repository's benchmark of sparse implicit differentiation, whose two printed times it compares)
# cause: Each figure is one clock pair around one run (LB104), read with `time.time()` (LB105), and cold: the first `jax.jacrev` through the implicit-differentiation rule compiles its operations inside the timing, with nothing to tell that apart from the work. The Jacobian `J` is a JAX array computed by eager operations dispatched asynchronously, and the clock is read right after it with nothing waited for (LB102): the figure stops at dispatch for whatever the solve leaves queued. `X` and `y` are NumPy arrays from scikit-learn, handed to the JAX optimality function on every timed run, so their host-to-device copy is inside each figure (LB115). No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit 0c1adfe, unchanged.
# static: LB102, LB104, LB105, LB115
# dynamic: n/a
# inferred: LB102 (the clock is read after `jax.jacrev(...)(...)` with nothing waited for; not discussed), LB104 (one cold sample per figure; not discussed), LB105 (`time.time()` as the interval clock; not discussed), LB115 (the NumPy `X` and `y` go to the device inside each timing, as in case 268; not discussed)
# lines: LB102:72/80, LB104:70/77, LB105:69/76, LB115:72/80
# first-sight: aea0196 2026-12-06 py: found LB105:69 LB104:70 LB105:76 LB104:77; missed LB102:72/80, LB115:72/80; false LB102:71 LB114:72 LB102:79 LB114:80 | notebook: found LB105:69 LB104:70 LB105:76 LB104:77; missed LB102:72/80, LB115:72/80; false LB102:71 LB114:72 LB102:79 LB114:80

# Copyright 2021 Google LLC
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

import time
import jax
import jax.numpy as jnp

from jaxopt import prox
from jaxopt import implicit_diff as idf
from jaxopt._src import test_util
from jaxopt import objective

from sklearn import datasets


def lasso_objective(params, lam, X, y):
  residuals = jnp.dot(X, params) - y
  return 0.5 * jnp.mean(residuals ** 2) / len(y) + lam * jnp.sum(
    jnp.abs(params))


def lasso_solver(params, X, y, lam):
  sol = test_util.lasso_skl(X, y, lam)
  return sol


X, y = datasets.make_regression(
    n_samples=10, n_features=10_000, random_state=0)
lam_max = jnp.max(jnp.abs(X.T @ y)) / len(y)
lam = lam_max / 2
L = jax.numpy.linalg.norm(X, ord=2) ** 2


def make_restricted_optimality_fun(support):
  def restricted_optimality_fun(restricted_params, X, y, lam):
    # this is suboptimal, I would try to compute restricted_X once for all
    restricted_X = X[:, support]
    return lasso_optimality_fun(restricted_params, restricted_X, y, lam)
  return restricted_optimality_fun


def lasso_optimality_fun(params, X, y, lam, tol=1e-4):
  n_samples = X.shape[0]
  return prox.prox_lasso(
    params - jax.grad(objective.least_squares)(params, (X, y)) * n_samples / L, lam * len(y) / L) - params


t_start = time.time()
lasso_solver_decorated = idf.custom_root(lasso_optimality_fun)(lasso_solver)
sol = test_util.lasso_skl(X=X, y=y, lam=lam)
J = jax.jacrev(lasso_solver_decorated, argnums=3)(None, X, y, lam)
t_custom = time.time() - t_start


t_start = time.time()
lasso_solver_decorated = idf.sparse_custom_root(
    lasso_optimality_fun, make_restricted_optimality_fun)(lasso_solver)
sol = test_util.lasso_skl(X=X, y=y, lam=lam)
J = jax.jacrev(lasso_solver_decorated, argnums=3)(None, X, y, lam)
t_custom_sparse = time.time() - t_start


print("Time taken to compute the Jacobian %.3f" % t_custom)
print("Time taken to compute the Jacobian with the sparse implementation %.3f" % t_custom_sparse)
