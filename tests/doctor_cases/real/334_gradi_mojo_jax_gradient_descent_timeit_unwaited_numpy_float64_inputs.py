# source: https://github.com/StijnWoestenborghs/gradi-mojo/blob/0a17abddd3232e05b40e628998f5d4b253546556/main.py
# title: gradi-mojo `main.py` with `python/gradient_descent_JAX.py`: a jitted `lax.scan` gradient descent timed with `timeit(number=10)` beside native-Python, NumPy and C++ versions (the repository's Mojo version is timed in Mojo), called on float64 NumPy arrays and returning its JAX result unwaited
# established-by: maintainer StijnWoestenborghs (the repository behind the 'Mojo does give superpowers' blog post's timings; pull request #5 replaced the JAX implementation and the post's figures were to be redone)
# cause: `benchmark_gradient_descent_JAX` times `gradient_descent_JAX(X, D, ...)` ten times with `timeit`, and the jitted function returns the JAX array `X` that nothing waits for, so each call is timed at its dispatch and the average is not the descent's cost (LB102, at the timed call; the untimed call `p3 = ...` before it compiles the function, so no LB103). Its inputs are the NumPy arrays `X` and `D` of the NumPy benchmark, so every timed call also copies them to the device (LB115, at the timed call; the reading of cases 289-291, NumPy arrays handed to JAX code inside the timing). They are float64 (`np.random.rand`, `np.array(D, dtype=np.float64)`), and with `jax_enable_x64` never set JAX computes the descent in float32 while the NumPy and C++ versions it is compared with run in float64 (LB108, at the two `jnp.array` conversions of the timed function; case 081's reading of float64 NumPy arrays converted to JAX). `timeit(number=10)` averages ten calls, not one sample. No issue discusses the timing (pull request #5, by a contributor, changed the JAX implementation, not its measurement); the readings are the catalogue's. Code: two cells, `python/gradient_descent_JAX.py` as stored at commit 3433022 (first) and `main.py` as stored at commit 0a17abd (second), unchanged.
# static: LB102, LB108, LB115
# dynamic: n/a
# inferred: LB102 (the jitted result is never waited for; not discussed), LB108 (float64 NumPy inputs computed in float32 against float64 baselines; not discussed), LB115 (NumPy inputs copied to the device in every timed call; not discussed)
# lines: LB102:133, LB108:31/32, LB115:133
# first-sight: de40b29 2026-12-06 py: found LB102:133; missed LB108:31/32, LB115:133; false none | notebook: found LB102:133; missed LB108:31/32, LB115:133; false none

# %%
import jax.numpy as jnp
import jax
from functools import partial

def loss(X, D):
    N = X.shape[0]
    total_loss = 0
    
    for i in range(N):
        for j in range(N):
            difference = X[i] - X[j]
            squared_distance = jnp.dot(difference.T, difference)
            total_loss += (squared_distance - D[i, j]**2)**2
            
    return total_loss

# ----- Jax Method 1 -----
@partial(jax.jit, static_argnums=(2,3))
def gradient_descent_JAX(X, D, learning_rate=0.0001, num_iterations=1000):
    D = jnp.array(D)
    X = jnp.array(X)
    
    iterations = jnp.arange(num_iterations)
    (X, learning_rate, D), _ = jax.lax.scan(grad_step, (X, learning_rate, D), iterations)
    return X

def grad_step(carry, x):
    X, learning_rate, D = carry
    
    grad = compute_gradient(X, D)
    X -= learning_rate * grad
    return (X, learning_rate, D), None

def compute_gradient(X, D):
    iterations = jnp.arange(X.shape[0])
    (X, D), grad = jax.lax.scan(iter1, (X, D), iterations)
    return grad

def iter1(carry, row1):
    X, D = carry
    diff = X[row1] - X
    diff_squared = diff ** 2
    squared_distance = jnp.sum(diff_squared, axis=diff_squared.ndim - 1)
    squared_distance_diff = 4 * (squared_distance - (D[row1] ** 2).T)
    squared_distance_diff_reshaped = jnp.reshape(squared_distance_diff, (squared_distance_diff.shape[0], 1))
    return (X, D), jnp.sum(squared_distance_diff_reshaped * diff, axis=0)

# ----- Jax cache method for plotting -----
def gradient_descent_cache_JAX(X, D, learning_rate=0.001, num_iterations=1000):
    D = jnp.array(D)
    X = jnp.array(X)
    
    iterations = jnp.arange(num_iterations)
    _, (positions_over_time, loss_over_time) = jax.lax.scan(grad_step_with_time_evolution, (X, learning_rate, D), iterations)

    return positions_over_time, loss_over_time

def grad_step_with_time_evolution(carry, _):
    X, learning_rate, D = carry
    loss_val = loss(X, D)
    grad = compute_gradient(X, D)
    X -= learning_rate * grad
    return (X, learning_rate, D), (X, loss_val)

# %%
import numpy as np

from cpp.binding import gradient_descent_cpp
from python.gradient_descent import gradient_descent, gradient_descent_cache
from python.gradient_descent_native import gradient_descent_native, gradient_descent_native_cache, PyMatrix
from python.gradient_descent_JAX import gradient_descent_JAX, gradient_descent_cache_JAX
from python.utils import plot_gradient_descent, plot_gradient_descent_2D, animate_gradient_descent

from timeit import timeit


def generate_radial_points(N, dim):
    r = 0.5
    points = []
    if dim == 2:
        for i in range(N):
            angle = 2 * np.pi * i / N
            points.append([r * np.cos(angle), r * np.sin(angle)])
    elif dim == 3:
        for i in range(N):
            phi = np.arccos(1 - 2 * (i / N))
            theta = np.sqrt(N * np.pi) * phi
            x = r * np.sin(phi) * np.cos(theta)
            y = r * np.sin(phi) * np.sin(theta)
            z = r * np.cos(phi)
            points.append([x, y, z])
    else:
        raise ValueError("Only supports 2D and 3D")
    
    return points


def generate_distance_matrix(points):
    n = len(points)
    distance_matrix = np.zeros((n, n))
    
    for i in range(n):
        for j in range(i+1, n):
            distance = np.linalg.norm(np.array(points[i]) - np.array(points[j]))
            distance_matrix[i, j] = distance
            distance_matrix[j, i] = distance
    
    return distance_matrix


def benchmark_gradient_descent_native(X_native, D_native, lr, niter):
    secs = timeit(lambda: gradient_descent_native(X_native, D_native, learning_rate=lr, num_iterations=niter), number=10) / 10
    print(f"Average time python native: {secs}")


def benchmark_gradient_descent(X, D, lr, niter):
    secs = timeit(lambda: gradient_descent(X, D, learning_rate=lr, num_iterations=niter), number=10) / 10
    print(f"Average time python numpy: {secs}")


def benchmark_gradient_descent_JAX(X, D, lr, niter):
    secs = timeit(lambda: gradient_descent_JAX(X, D, learning_rate=lr, num_iterations=niter), number=10) / 10
    print(f"Average time JAX: {secs}")


def benchmark_gradient_descent_cpp(X, D, lr, niter):
    secs = timeit(lambda: gradient_descent_cpp(X, D, learning_rate=lr, num_iterations=niter), number=10) / 10
    print(f"Average time C++ binding: {secs}")




def benchmarks(D, dim, lr, niter, plots=True):

    N = len(D)
    D = np.array(D, dtype=np.float64)
    D_native = PyMatrix(D.tolist(), N, N)

    # Initial starting point
    np.random.seed(42)
    X = np.random.rand(N, dim)
    X_native = PyMatrix(X.tolist(), N, dim)

    ### Without visuals
    p1 = gradient_descent_native(X_native.copy(), D_native, learning_rate=lr, num_iterations=niter)
    p2 = gradient_descent(X.copy(), D, learning_rate=lr, num_iterations=niter)
    p3 = gradient_descent_JAX(X.copy(), D, learning_rate=lr, num_iterations=niter)
    p_cpp = gradient_descent_cpp(X.copy(), D, learning_rate=lr, num_iterations=niter)

    ### Benchmarks
    benchmark_gradient_descent_native(X_native.copy(), D_native, lr=lr, niter=niter)
    benchmark_gradient_descent(X.copy(), D, lr=lr, niter=niter)
    benchmark_gradient_descent_JAX(X.copy(), D, lr=lr, niter=niter)
    benchmark_gradient_descent_cpp(X.copy(), D, lr=lr, niter=niter)

    ## Visualization
    if plots:
        P, L = gradient_descent_cache(X.copy(), D, learning_rate=lr, num_iterations=niter)
        plot_gradient_descent_2D(P, L, title="Gradient Descent in python numpy")
        plot_gradient_descent(P, L, title="Gradient Descent in python numpy")
        
        P_native, L_native = gradient_descent_native_cache(X_native.copy(), D_native, learning_rate=lr, num_iterations=niter)
        plot_gradient_descent(P_native, L_native, title="Gradient Descent in native python")

        # TODO
        # P_JAX, L_JAX = gradient_descent_cache_JAX(X.copy(), D, learning_rate=lr, num_iterations=niter)
        # plot_gradient_descent(P_JAX, L_JAX, title="Gradient Descent in JAX")
        
        # (cache function not implemented)
        plot_gradient_descent(p_cpp, -1, title="Gradient Descent in C++")

        # animate_gradient_descent(P[:100], L[:100])


if __name__ == "__main__":
    
    # Create optimization target
    n_circle = 10
    dim_circle = 2
    points = generate_radial_points(n_circle, dim_circle)           # circle/sphere
    # points = np.loadtxt("./shapes/modular.csv", delimiter=",")      # modular (N = 1000)
    # points = np.loadtxt("./shapes/flame.csv", delimiter=",")        # flame (N = 307)
    
    # Optimization input
    dim = 2
    lr = 0.001
    niter = 1000
    plots = True

    benchmarks(
        D=generate_distance_matrix(points),
        dim=dim,
        lr=lr,
        niter=niter,
        plots=plots
    )
