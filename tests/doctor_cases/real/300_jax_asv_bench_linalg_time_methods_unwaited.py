# source: https://github.com/jax-ml/jax/blob/42a54dd37b9b276dd482608a154e2aabb3932a5d/benchmarks/bench_linalg.py
# title: JAX's early asv suite `benchmarks/bench_linalg.py`: `Eindot` and `Linalg` classes whose `setup` builds JAX arrays and whose `time_*` methods call eager `jax.numpy` products, einsums and `linalg` functions without waiting for them
# established-by: maintainer jax-ml (JAX's own asv benchmark suite of 2019, run through `benchmarks/asv.conf.json`)
# cause: asv times each `time_*` method until it returns. Every method calls an eager `jax.numpy` operation (`dot`, `einsum`, `inner`, `matmul`, `tensordot`, `linalg.cholesky`/`svd`/`pinv`/`det`/`norm`) and discards the result, so nothing waits for the device and each figure is dispatch time wherever dispatch is asynchronous (LB102 at each timed call; JAX's CPU dispatch of 2019 waited, its GPU and TPU dispatch did not, and CPU dispatch is asynchronous now). The arrays are built in `setup`, outside the timing, and asv's repeats absorb the first-call compiles. The suite copies NumPy's own `bench_linalg.py` (the same class and method names), so its figures invite a comparison in which NumPy's work is complete and JAX's is not. The 095-106 batch left the file out as one whose fault no maintainer stated; it is entered now with the catalogue's reading in `inferred:`, as the batches from 267 on do. Code: the file as stored at commit 42a54dd, unchanged.
# static: LB102
# dynamic: n/a
# inferred: LB102 (no `time_*` method waits for its result; not discussed)
# lines: LB102:30/33/36/39/42/45/48/51/54/57/60/63/66/69/72/75/78/81/99
# first-sight: 81cc67c 2026-12-06 py: found none; missed LB102:30/33/36/39/42/45/48/51/54/57/60/63/66/69/72/75/78/81/99; false none | notebook: found none; missed LB102:30/33/36/39/42/45/48/51/54/57/60/63/66/69/72/75/78/81/99; false none

from __future__ import absolute_import, division, print_function
import jax.numpy as np
from jax.numpy import linalg
from jax import random

class Eindot():
  def setup(self):
    self.a = np.arange(60000.0).reshape(150, 400)
    self.ac = self.a.copy()
    self.at = self.a.T
    self.atc = self.a.T.copy()
    self.b = np.arange(240000.0).reshape(400, 600)
    self.c = np.arange(600)
    self.d = np.arange(400)

    self.a3 = np.arange(480000.).reshape(60, 80, 100)
    self.b3 = np.arange(192000.).reshape(80, 60, 40)

  def time_dot_a_b(self):
    np.dot(self.a, self.b)

  def time_dot_d_dot_b_c(self):
    np.dot(self.d, np.dot(self.b, self.c))

  def time_dot_trans_a_at(self):
    np.dot(self.a, self.at)

  def time_dot_trans_a_atc(self):
    np.dot(self.a, self.atc)

  def time_dot_trans_at_a(self):
    np.dot(self.at, self.a)

  def time_dot_trans_atc_a(self):
    np.dot(self.atc, self.a)

  def time_einsum_i_ij_j(self):
    np.einsum('i,ij,j', self.d, self.b, self.c)

  def time_einsum_ij_jk_a_b(self):
    np.einsum('ij,jk', self.a, self.b)

  def time_einsum_ijk_jil_kl(self):
    np.einsum('ijk,jil->kl', self.a3, self.b3)

  def time_inner_trans_a_a(self):
    np.inner(self.a, self.a)

  def time_inner_trans_a_ac(self):
    np.inner(self.a, self.ac)

  def time_matmul_a_b(self):
    np.matmul(self.a, self.b)

  def time_matmul_d_matmul_b_c(self):
    np.matmul(self.d, np.matmul(self.b, self.c))

  def time_matmul_trans_a_at(self):
    np.matmul(self.a, self.at)

  def time_matmul_trans_a_atc(self):
    np.matmul(self.a, self.atc)

  def time_matmul_trans_at_a(self):
    np.matmul(self.at, self.a)

  def time_matmul_trans_atc_a(self):
    np.matmul(self.atc, self.a)

  def time_tensordot_a_b_axes_1_0_0_1(self):
    np.tensordot(self.a3, self.b3, axes=([1, 0], [0, 1]))

def get_squares_(size):
  key = random.PRNGKey(42)
  values = random.uniform(key, shape=(size, size), minval=0, maxval=100)
  return values

class Linalg:
  params = [['cholesky', 'svd', 'pinv', 'det', 'norm'], [10, 20, 100]]
  param_names = ['op', 'size']

  def setup(self, op, size):
    self.func = getattr(linalg, op)
    self.a = get_squares_(size)
    if op == 'cholesky':
      self.a *= self.a.T

  def time_op(self, op, size):
    self.func(self.a)
