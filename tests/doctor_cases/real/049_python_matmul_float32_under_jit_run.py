# source: https://github.com/jax-ml/jax/issues/3134
# explain: f_jit
# dynamic: LB230, LB202
# first-sight: 43b52af 2026-12-02 explain: found LB202; missed LB230; false none
# Runnable copy of 049_python_matmul_float32_under_jit.py for levelbench.explain: the posted
# functions, jitted as the issue calls them, on 6 Python floats instead of 30.

import jax.numpy as np
from jax import jit

def make_mat(m, n):
  a = []
  for i in range(0, m):
    a.append([])
    for j in range(0, n):
      a[i].append(0)
  return a

def mat_mul(a, b):
  m = len(a)
  n = len(b[0])
  c = make_mat(m, n)
  for i in range(0, m):
    for j in range(0, n):
      for k in range(0, len(b)):
        c[i][j] += a[i][k] * b[k][j]
  return c

def trace(m):
  tot = 0
  for i in range(0, len(m)):
    tot += m[i][i]
  return tot

def transpose(m):
  a = make_mat(len(m[0]), len(m))
  for i in range(0, len(m)):
    for j in range(0, len(m[0])):
      a[j][i] = m[i][j]
  return a

def f(v):
  v = [v]
  #print(v)
  m = mat_mul(transpose(v), v)
  #print(m)
  mm = mat_mul(m, m)
  #print(mm)
  return trace(mm)

f_jit = jit(f)


def f_jit_args():
  return ([float(n-5) for n in range(0, 6)],)
