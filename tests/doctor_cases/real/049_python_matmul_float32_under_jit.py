# source: https://github.com/jax-ml/jax/issues/3134
# title: Vanilla python function returns different result with jax
# established-by: maintainer hawkinsp
# cause: The jitted version gives 24552024.0 where plain Python gives 24552025.0 only because JAX computes the Python floats in float32 (plain Python uses float64); computing in float32 with NumPy gives the same number, and enabling x64 makes JAX agree.
# static: LB106
# dynamic: LB230, LB202
# inferred: LB106 and LB202 (jit(f) traces the nested Python loops of mat_mul, transpose and trace into one long unrolled program, 30x30 list elements; the thread discussed only the precision)
# lines: LB106:16/18/26/27/28/34/40/41
# first-sight: 43b52af 2026-12-02 py: found LB106:16 LB106:18 LB106:26 LB106:27 LB106:28 LB106:34 LB106:40 LB106:41; missed none; false none | notebook: found LB106:16 LB106:18 LB106:26 LB106:27 LB106:28 LB106:34 LB106:40 LB106:41; missed none; false none

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

v = [float(n-5) for n in range(0, 30)]

print(f(v))
print(jit(f)(v))
