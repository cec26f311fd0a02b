# source: https://github.com/jax-ml/jax/blob/0b41ff93eaff3e92ae5f553b152321b3bdd7b8aa/docs/notebooks/autodiff_cookbook.md
# title: JAX 'The Autodiff Cookbook' notebook: three Hessian-vector product compositions and the full Hessian, then looped against vmapped matrix-Jacobian and Jacobian-matrix products, each compared with `%timeit -n10 -r3` of an unjitted call whose result is not waited for
# established-by: maintainer mattjj (JAX's own documentation notebook, written by alexbw and mattjj)
# cause: The cookbook argues from its timings that forward-over-reverse is the best Hessian-vector product and that `vmap` beats a Python loop over `vjp`/`jvp` calls, each figure a `%timeit -n10 -r3` of a call that returns a JAX array and is never waited for (no `.block_until_ready()`, no host conversion). None of the timed functions is jitted, so each call traces the transformations and dispatches their operations one at a time, and with asynchronous dispatch the clock stops once the last operation is queued, not when it has run: what the eight figures compare is dispatch, with an unknown share of the work (LB102 at each `%timeit` line; case 240's reading of a `%timeit` of an unwaited unjitted function, and case 023's of the JAX docs' `%time jnp.dot`). What the notebook compares is the unjitted cost itself, so the op-by-op dispatch is not labelled, and the list-comprehension `loop_mjp` and `loop_jmp` are the deliberately slow side of the `vmap` comparison (case 240 labels only LB102 on the same shape; case 292 leaves a deliberate slow variant unlabelled). `%timeit` repeats every call (no LB104), and no function the file jits is timed (no LB103). Code: the notebook's cells from the top through the two Jacobian-product timings at commit 0b41ff9, keeping the cells that define what the timed cells use (imports, the logistic-regression setup, `jacfwd`/`jacrev`, `hessian`, the `jvp` cell that defines `y`, the `vjp` import, the Hessian-vector products); the cells in between that time nothing (gradients with `argnums`, containers, `value_and_grad`, finite-difference checks, the first `grad`-of-`grad` `hvp`, `jacrev` of a dict) and everything after the timings are left out, and one `# %%` cell each; the markdown and cell ids are left out.
# static: LB102
# dynamic: n/a
# inferred: LB102 (none of the eight timed calls is waited for; not discussed)
# lines: LB102:113/115/117/120/144/148/166/169
# first-sight: 93cdbc0 2026-12-06 py: found LB102:115 LB102:117 LB102:120 LB102:144 LB102:166 LB102:169; missed none; false LB114:113 LB114:115 LB114:117 LB114:144 LB114:148 LB114:166 LB114:169 | notebook: found LB102:115 LB102:117 LB102:120 LB102:144 LB102:166 LB102:169; missed none; false LB114:113 LB114:115 LB114:117 LB114:144 LB114:148 LB114:166 LB114:169

# %%
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random

key = random.PRNGKey(0)
# %%
def sigmoid(x):
    return 0.5 * (jnp.tanh(x / 2) + 1)

# Outputs probability of a label being true.
def predict(W, b, inputs):
    return sigmoid(jnp.dot(inputs, W) + b)

# Build a toy dataset.
inputs = jnp.array([[0.52, 1.12,  0.77],
                   [0.88, -1.08, 0.15],
                   [0.52, 0.06, -1.30],
                   [0.74, -2.49, 1.39]])
targets = jnp.array([True, True, False, True])

# Training loss is the negative log-likelihood of the training examples.
def loss(W, b):
    preds = predict(W, b, inputs)
    label_probs = preds * targets + (1 - preds) * (1 - targets)
    return -jnp.sum(jnp.log(label_probs))

# Initialize random model coefficients
key, W_key, b_key = random.split(key, 3)
W = random.normal(W_key, (3,))
b = random.normal(b_key, ())
# %%
from jax import jacfwd, jacrev

# Isolate the function from the weight matrix to the predictions
f = lambda W: predict(W, b, inputs)

J = jacfwd(f)(W)
print("jacfwd result, with shape", J.shape)
print(J)

J = jacrev(f)(W)
print("jacrev result, with shape", J.shape)
print(J)
# %%
def hessian(f):
    return jacfwd(jacrev(f))

H = hessian(f)(W)
print("hessian, with shape", H.shape)
print(H)
# %%
from jax import jvp

# Isolate the function from the weight matrix to the predictions
f = lambda W: predict(W, b, inputs)

key, subkey = random.split(key)
v = random.normal(subkey, W.shape)

# Push forward the vector `v` along `f` evaluated at `W`
y, u = jvp(f, (W,), (v,))
# %%
from jax import vjp

def vgrad(f, x):
  y, vjp_fn = vjp(f, x)
  return vjp_fn(jnp.ones(y.shape))[0]

print(vgrad(lambda x: 3*x**2, jnp.ones((2, 2))))
# %%
from jax import jvp, grad

# forward-over-reverse
def hvp(f, primals, tangents):
  return jvp(grad(f), primals, tangents)[1]
# %%
def f(X):
  return jnp.sum(jnp.tanh(X)**2)

key, subkey1, subkey2 = random.split(key, 3)
X = random.normal(subkey1, (30, 40))
V = random.normal(subkey2, (30, 40))

ans1 = hvp(f, (X,), (V,))
ans2 = jnp.tensordot(hessian(f)(X), V, 2)

print(jnp.allclose(ans1, ans2, 1e-4, 1e-4))
# %%
# reverse-over-forward
def hvp_revfwd(f, primals, tangents):
  g = lambda primals: jvp(f, primals, tangents)[1]
  return grad(g)(primals)
# %%
# reverse-over-reverse, only works for single arguments
def hvp_revrev(f, primals, tangents):
  x, = primals
  v, = tangents
  return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)


print("Forward over reverse")
%timeit -n10 -r3 hvp(f, (X,), (V,))
print("Reverse over forward")
%timeit -n10 -r3 hvp_revfwd(f, (X,), (V,))
print("Reverse over reverse")
%timeit -n10 -r3 hvp_revrev(f, (X,), (V,))

print("Naive full Hessian materialization")
%timeit -n10 -r3 jnp.tensordot(hessian(f)(X), V, 2)
# %%
# Isolate the function from the weight matrix to the predictions
f = lambda W: predict(W, b, inputs)

# Pull back the covectors `m_i` along `f`, evaluated at `W`, for all `i`.
# First, use a list comprehension to loop over rows in the matrix M.
def loop_mjp(f, x, M):
    y, vjp_fun = vjp(f, x)
    return jnp.vstack([vjp_fun(mi) for mi in M])

# Now, use vmap to build a computation that does a single fast matrix-matrix
# multiply, rather than an outer loop over vector-matrix multiplies.
def vmap_mjp(f, x, M):
    y, vjp_fun = vjp(f, x)
    outs, = vmap(vjp_fun)(M)
    return outs

key = random.PRNGKey(0)
num_covecs = 128
U = random.normal(key, (num_covecs,) + y.shape)

loop_vs = loop_mjp(f, W, M=U)
print('Non-vmapped Matrix-Jacobian product')
%timeit -n10 -r3 loop_mjp(f, W, M=U)

print('\nVmapped Matrix-Jacobian product')
vmap_vs = vmap_mjp(f, W, M=U)
%timeit -n10 -r3 vmap_mjp(f, W, M=U)

assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Matrix-Jacobian Products should be identical'
# %%
def loop_jmp(f, W, M):
    # jvp immediately returns the primal and tangent values as a tuple,
    # so we'll compute and select the tangents in a list comprehension
    return jnp.vstack([jvp(f, (W,), (mi,))[1] for mi in M])

def vmap_jmp(f, W, M):
    _jvp = lambda s: jvp(f, (W,), (s,))[1]
    return vmap(_jvp)(M)

num_vecs = 128
S = random.normal(key, (num_vecs,) + W.shape)

loop_vs = loop_jmp(f, W, M=S)
print('Non-vmapped Jacobian-Matrix product')
%timeit -n10 -r3 loop_jmp(f, W, M=S)
vmap_vs = vmap_jmp(f, W, M=S)
print('\nVmapped Jacobian-Matrix product')
%timeit -n10 -r3 vmap_jmp(f, W, M=S)

assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Jacobian-Matrix products should be identical'
