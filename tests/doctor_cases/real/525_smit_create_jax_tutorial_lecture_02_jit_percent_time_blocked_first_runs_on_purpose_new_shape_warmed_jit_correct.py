# source: https://github.com/Smit-create/jax_tutorial/blob/7763d8421207140e5994a2a611a5eb1b1ccb0df5/lectures/lecture_02.md
# title: Smit-create's jax_tutorial lecture 2 ('JIT-compilation, Functional Programming and Gradients', a MyST lecture built with Jupyter Book, after QuantEcon's JAX introduction): an eager array function timed with `%time ... .block_until_ready()` twice on a 50,000,000-element array, twice on a new shape and once more on the first, then `jax.jit(f)` called once to compile and timed once with `%time`, followed by untimed lessons on purity, `grad`, `value_and_grad`, `hessian` and `jacfwd`
# established-by: maintainer Smit-create (the course's own lecture; no issue discusses its timing)
# cause: Correct for what the catalogue checks. Every timed statement ends in `.block_until_ready()` (no LB102). The first `%time` of each shape is a cold run timed on purpose: the lecture says 'the first run includes compile time' and times each again right after, and for the new shape says the time increases 'because now new versions of the built-ins like `jnp.cos` are being compiled' (no LB103 or LB104 there, the reading of cases 212, 287 and 322); at this point `f` is the eager function, whose primitives compile on first use (case 197's reading: not LB103). `f_jit(x)` is called once to compile ('Let's run once to compile it') before its `%time` (no LB103); its run is not waited for and can spill into the timed call, which waits (noted, not labelled, case 374's reading). Each figure is one `%time` readout, IPython's one-run timer (not LB104, the corpus's `%time` reading, case 226). The later `@jax.jit` redefinitions of `f`, the purity demonstration and the `grad` list comprehension over 200 grid points for a plot are untimed (no LB114, the reading of 246, 260 and 106). A correct doctor stays quiet. Code: the lecture's code cells at commit 7763d84, as `# %%` cells, their MyST `:hide-output:` options and the prose dropped.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: df1cd3d 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# %%
import jax
import jax.numpy as jnp
# %%
def f(x):
    a = 3*x + jnp.sin(x) + jnp.cos(x**2) - jnp.cos(2*x) - x**2 * 0.4 * x**1.5
    return jnp.sum(a)
# %%
n = 50_000_000
x = jnp.ones(n)
# %%
%time f(x).block_until_ready()
# %%
%time f(x).block_until_ready()
# %%
m = 50_000_001
y = jnp.ones(m)
# %%
%time f(y).block_until_ready()
# %%
%time f(y).block_until_ready()
# %%
%time f(x).block_until_ready()
# %%
f_jit = jax.jit(f)   # target for JIT compilation
# %%
f_jit(x)
# %%
%time f_jit(x).block_until_ready()
# %%
@jax.jit
def f(x):
    a = 3*x + jnp.sin(x) + jnp.cos(x**2) - jnp.cos(2*x) - x**2 * 0.4 * x**1.5
    return jnp.sum(a)
# %%
a = 1  # global

@jax.jit
def f(x):
    return a + x
# %%
x = jnp.ones(2)
# %%
f(x)
# %%
a = 42
# %%
f(x)
# %%
x = jnp.ones(3)
# %%
f(x)
# %%
# Define a function
def f(x):
    return jnp.cos(jnp.sin(x**2))
# %%
# Compute the gradient of the function
f_prime = jax.grad(f)

print("Gradient of f:", f_prime(10.0))
# %%
import matplotlib.pyplot as plt

fig, ax = plt.subplots()
x_grid = jnp.linspace(1, 10, 200)
ax.plot(x_grid, f(x_grid), label="$f$")
ax.plot(x_grid, [f_prime(x) for x in x_grid], label="$f'$")
ax.legend(loc='upper left')
plt.show()
# %%
# Define a function of two variables
def g(x, y):
    return jnp.sin(x) * jnp.cos(y)

# Compute the gradient of g with respect to both x and y
g_prime = jax.grad(g, argnums=(0, 1))

# Evaluate the gradient at (x, y) = (0, 0)
result = g_prime(0.0, 0.0)
print("Gradient of g at (0, 0):", result)
# %%
# Compute the function value and gradient simultaneously
value, grad_value = jax.value_and_grad(f)(jnp.array(3.0))

print("Function value:", value)
print("Gradient of f at x=3.0:", grad_value)
# %%
# Compute the Hessian matrix of f
hessian_f = jax.hessian(f)

# Evaluate the Hessian at x = 2
result = hessian_f(2.0)
print("Hessian of f at x=2:", result)
# %%
# Define a vector-valued function
def h(x):
    return jnp.array([x[0] ** 2, jnp.sin(x[1])])

# Compute the Jacobian of h using forward-mode differentiation
jacobian_h = jax.jacfwd(h)

# Evaluate the Jacobian at x = [1, 0]
result = jacobian_h(jnp.array([1.0, 0.0]))
print("Jacobian of h at [1, 0]:", result)
