# source: https://github.com/google/jaxopt/blob/0c230ceda3de5c0508c3408f16641f7f05ff8804/benchmarks/sparse_vjp.py
# title: jaxopt `benchmarks/sparse_vjp.py`: a scikit-learn Lasso solve, then the Jacobian of its solution by `jax.vmap` of `root_vjp` and of `sparse_root_vjp` over the identity, each timed once with `time.time()`; the file ends 'Computation time are the same, which is very weird to me'
# established-by: maintainer jaxopt authors (the repository's benchmark, with the author's comment on the figures it printed)
# cause: Each of the three figures is one clock pair around one run (LB104), read with `time.time()` (LB105): the scikit-learn solve, then each vmapped vector-Jacobian product over the 10,000x10,000 identity, cold, its operations compiled inside the figure. The Jacobians `J` and `J_sparse` are JAX arrays computed by eager operations dispatched asynchronously, and the clock is read right after each with nothing waited for (LB102), so a figure can stop at dispatch; the author's closing comment, that the dense and sparse computations take the same time, 'which is very weird', is what timing dispatch looks like, though no one traced it. `X` and `y` are NumPy arrays passed in `args` to the JAX optimality function, copied to the device inside each Jacobian timing (LB115). No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit 0c230ce, unchanged.
# static: LB102, LB104, LB105, LB115
# dynamic: n/a
# inferred: LB102 (the clock is read after each vmapped VJP with nothing waited for; the author's comment notes equal times, not the cause), LB104 (one cold sample per figure; not discussed), LB105 (`time.time()` as the interval clock; not discussed), LB115 (the NumPy `X` and `y` go to the device inside each Jacobian timing, as in case 268; not discussed)
# lines: LB102:63/68, LB104:45/62/67, LB105:44/61/66, LB115:63/68
# first-sight: aea0196 2026-12-06 py: found LB105:44 LB104:45 LB105:61 LB104:62 LB102:63 LB105:66 LB104:67 LB102:68; missed LB115:63/68; false LB115:46 LB114:63 LB114:68 | notebook: found LB105:44 LB104:45 LB105:61 LB104:62 LB102:63 LB105:66 LB104:67 LB102:68; missed LB115:63/68; false LB115:46 LB114:63 LB114:68

import time
import jax

import jax.numpy as jnp

from jaxopt import prox
from jaxopt import implicit_diff as idf
from jaxopt._src import test_util


from sklearn import datasets

X, y = datasets.make_regression(
  n_samples=10, n_features=10_000, random_state=0)

L = jax.numpy.linalg.norm(X, ord=2) ** 2


def optimality_fun(params, lam, X, y):
  return prox.prox_lasso(
    params - X.T @ (X @ params - y) / L, lam * len(y) / L) - params


def make_restricted_optimality_fun(support):
  def restricted_optimality_fun(restricted_params, lam, X, y):
    # this is suboptimal, I would try to compute restricted_X once for all
    restricted_X = X[:, support]
    return optimality_fun(restricted_params, lam, restricted_X, y)
  return restricted_optimality_fun


lam_max = jnp.max(jnp.abs(X.T @ y)) / len(y)
lam = lam_max / 2
t_start = time.time()
sol = test_util.lasso_skl(X, y, lam)
print(sol)
t_optim = time.time() - t_start

vjp = lambda g: idf.root_vjp(optimality_fun=optimality_fun,
                             sol=sol,
                             args=(lam, X, y),
                             cotangent=g)[0]  # vjp w.r.t. lam

vjp_sparse = lambda g: idf.sparse_root_vjp(
  optimality_fun=optimality_fun,
  make_restricted_optimality_fun=make_restricted_optimality_fun,
  sol=sol,
  args=(lam, X, y),
  cotangent=g)[0]  # vjp w.r.t. lam

t_start = time.time()
I = jnp.eye(len(sol))
J = jax.vmap(vjp)(I)
t_jac = time.time() - t_start

t_start = time.time()
I = jnp.eye(len(sol))
J_sparse = jax.vmap(vjp_sparse)(I)
t_jac_sparse = time.time() - t_start

print("Time taken to solve the Lasso optimization problem %.3f" % t_optim)
print("Time taken to compute the Jacobian %.3f" % t_jac)
print("Time taken to compute the Jacobian with the sparse implementation %.3f" % t_jac_sparse)


# Computation time are the same, which is very weird to me
# However, the Jacobian computed the sparse way is much closer to the real
# Jacobian
