# source: https://sineeli.github.io/2025/12/23/linear-regression
# title: sineeli's blog post 'Linear Regression from Scratch using JAX' (2025-12-23): a normal-equation `NormFit` (a jitted `pinv` solve) and a mini-batch gradient-descent `LinearRegression` (a jitted `lax.scan` epoch against a Python loop of eager JAX ops), each benchmarked JIT against non-JIT with `perf_counter` after a warm-up, 'Speedup: 3.69x faster with JIT' and '386.10x faster with JIT + jax.lax.scan'
# established-by: maintainer sineeli (the post's author, on his own Hexo blog, read whole from its source `source/_posts/linear-regression.md` in sineeli/sineeli.github.io at 0610157; no comment or reply discusses its timing)
# cause: Two benchmarks in one post, one of them not waited for. What a correct doctor reports, by the catalogue and the corpus's readings: `benchmark_normfit` warms the model once, then times five `_ = model.fit(X, y)` calls between `perf_counter` reads, and `fit` returns `self.theta`, the JAX array of a jitted (or, for the non-JIT figure, an eager `jnp.linalg.pinv`) solve that nothing waits for before the clock is read, so both per-call figures, 0.49 ms and 1.82 ms, are dispatch plus whatever the queue let through (LB102 at the timed call, the reading of 240 and 387 for an unwaited JAX result inside a clock pair; a method of the user's class that returns the array, as 409's jitted method is). The second benchmark is sound and must stay quiet: a separate `warmup_model` compiles `_batch_forward_jit` with the same static arguments and batch shape first, and every timed `fit` reads `float(avg_loss)` and `epoch_lrs.tolist()` after each epoch, so each of the three `perf_counter` samples ends waited (those host reads are part of the training loop both variants run, not LB115, 258's reading); the Python loop of eager JAX ops in `_batch_forward_no_jit` is the deliberate baseline the post sets against `lax.scan` (no LB114, 299's reading). Trimmed: the closed-form explanation, the illustrative `scan_fn` sketch (undefined names, untimed), the fit-and-print, California-housing, polynomial and ridge sections, which time nothing, and the output blocks; each fenced code block is one `# %%` cell.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the timed `model.fit` returns an unwaited JAX array; not discussed)
# lines: LB102:157
# first-sight: fb4008d 2026-12-06 py: found none; missed LB102:157; false none | notebook: found none; missed LB102:157; false none

# %%
import jax
import numpy as np
import jax.numpy as jnp
import pandas as pd
import seaborn as sns
import matplotlib.pyplot as plt

from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
import sklearn.metrics as skm

import warnings
warnings.filterwarnings('ignore')

# %%
seed = 32
num_samples = 100000
num_features = 5

# New JAX PRNG API (recommended)
key = jax.random.key(seed)

# Split keys for different random operations - JAX requires unique keys!
key, coeff_key, X_key, bias_key, noise_key = jax.random.split(key, 5)

random_coeff = jax.random.randint(coeff_key, shape=[num_features], minval=-10, maxval=10)

X = 2 * jax.random.normal(X_key, shape=(num_samples, num_features))

# Generate Random Bias and Coefficients
random_bais = jax.random.choice(bias_key, random_coeff, shape=(1,))
random_coeff = jax.random.choice(coeff_key, random_coeff, shape=(num_features,))

print(f"Random Bias: {random_bais}")
print(f"Random Coefficients: {random_coeff}")

coeff_features = []

# Construct each feature with random coeffcients choosen
for idx, coeff in enumerate(random_coeff):
  coeff_features.append(coeff * X[:, idx:idx+1])

# Print equation
equation = f"Y = {random_bais[0]}"
for idx, coeff in enumerate(random_coeff):
  equation += f" + {coeff} * X{idx+1}"
print(equation)

# Stack the features into a single matrix
coeff_features = jnp.hstack(coeff_features)

# Generate output from random data with unique noise key
y = random_bais + jnp.sum(coeff_features, axis=1) + jax.random.normal(noise_key, shape=(num_samples,))

# %%
import time
from functools import partial

class NormFit:
  """
  A class for fitting and predicting using the normal equation.
  Supports both JIT-compiled and non-JIT versions for performance comparison.

  Attributes:
      theta (numpy.ndarray): The parameters of the linear regression model.
      use_jit (bool): Whether to use JIT compilation.
  """

  def __init__(self, use_jit: bool = True):
    """
    Initialize the NormFit class with theta set to None.
    
    Args:
        use_jit (bool): If True, use JIT-compiled methods. Default True.
    """
    self.theta = None
    self.use_jit = use_jit

  @staticmethod
  def _fit_impl(X: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    """Core fitting logic - can be JIT compiled."""
    X_b = jnp.hstack((jnp.ones((X.shape[0], 1)), X))  # Add a column of ones for the bias term
    theta = jnp.linalg.pinv(X_b) @ y  # Use pinv for better numerical stability
    return theta

  # JIT-compiled version
  _fit_jit = staticmethod(jax.jit(_fit_impl.__func__))

  @staticmethod
  def _predict_impl(X: jnp.ndarray, theta: jnp.ndarray) -> jnp.ndarray:
    """Core prediction logic - can be JIT compiled."""
    return X @ theta

  # JIT-compiled version  
  _predict_jit = staticmethod(jax.jit(_predict_impl.__func__))

  def fit(self, X: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    """
    Fit the linear regression model using the normal equation.

    Args:
        X (numpy.ndarray): The input features.
        y (numpy.ndarray): The target values.

    Returns:
        numpy.ndarray: The learned parameters (theta).
    """
    if self.use_jit:
      self.theta = self._fit_jit(X, y)
    else:
      self.theta = self._fit_impl(X, y)
    return self.theta

  def predict(self, X: jnp.ndarray) -> jnp.ndarray:
    """
    Predict the target values using the learned model.

    Args:
        X (numpy.ndarray): The input features.

    Returns:
        numpy.ndarray: The predicted target values.
    """
    # Add bias column for prediction
    X_b = jnp.hstack((jnp.ones((X.shape[0], 1)), X))
    if self.use_jit:
      return self._predict_jit(X_b, self.theta)
    else:
      return self._predict_impl(X_b, self.theta)

# %%
# Performance comparison: JIT vs Non-JIT
def benchmark_normfit(X, y, use_jit, num_runs=5):
    """Benchmark NormFit with or without JIT."""
    model = NormFit(use_jit=use_jit)
    
    # Warm-up run (important for JIT to compile)
    _ = model.fit(X, y)
    
    # Timed runs
    times = []
    for _ in range(num_runs):
        start = time.perf_counter()
        _ = model.fit(X, y)
        end = time.perf_counter()
        times.append(end - start)
    
    return np.mean(times), np.std(times)

# Benchmark with JIT
jit_mean, jit_std = benchmark_normfit(X, y, use_jit=True)
print(f"JIT-compiled:     {jit_mean*1000:.4f} ± {jit_std*1000:.4f} ms")

# Benchmark without JIT
no_jit_mean, no_jit_std = benchmark_normfit(X, y, use_jit=False)
print(f"Non-JIT:          {no_jit_mean*1000:.4f} ± {no_jit_std*1000:.4f} ms")

# Speedup
speedup = no_jit_mean / jit_mean
print(f"\nSpeedup: {speedup:.2f}x faster with JIT")

# %%
class LinearRegression:
  """
  Linear Regression model implementation using JAX with JIT and jax.lax.scan.
  Supports both JIT-compiled and non-JIT versions for performance comparison.

  Attributes:
      key (jnp.ndarray): Random key for weight initialization.
      lr (float): Learning rate for gradient descent.
      epochs (int): Number of training epochs.
      W (jnp.ndarray): Weights of the linear regression model.
      use_jit (bool): Whether to use JIT compilation.
  """

  def __init__(
      self,
      key: jnp.ndarray,
      batch_size: int = 32,
      lr: float = 0.01,
      epochs: int = 1000,
      ridge_alpha: float = 0.0,
      use_jit: bool = True):
    self.key = key
    self.init_lr = lr
    self.epochs = epochs
    self.batch_size = batch_size
    self.ridge_alpha = ridge_alpha
    self.use_jit = use_jit
    self.W: jnp.ndarray = None
    self.decay = 0.001
    self.scheduler_progress = []
    self.loss_progress = []

  # ============== Core computation functions (can be JIT compiled) ==============
  
  @staticmethod
  def _batch_forward_impl(W: jnp.ndarray, X_batched: jnp.ndarray, y_batched: jnp.ndarray,
                          epoch: int, init_lr: float, decay: float, ridge_alpha: float):
    """
    Process all batches using jax.lax.scan (JIT-compatible).
    X_batched: (num_batches, batch_size, num_features + 1)
    y_batched: (num_batches, batch_size, 1)
    """
    num_batches = X_batched.shape[0]
    batch_size = X_batched.shape[1]

    def scan_fn(carry, inputs):
      W, step = carry
      X_batch, y_batch = inputs

      # Forward Pass
      y_pred = X_batch @ W

      # Gradient: (num_features + 1, batch_size) @ (batch_size, 1) -> (num_features + 1, 1)
      dW = (2 / batch_size) * (X_batch.T @ (y_pred - y_batch)) + ridge_alpha * W

      # Learning rate schedule
      num_steps = num_batches * epoch + step
      lr = init_lr / (1. + decay * num_steps)

      # Update Weights
      W_new = W - lr * dW

      # Loss: MSE + L2 regularization
      loss = (1/batch_size) * jnp.sum((y_pred - y_batch) ** 2) + (ridge_alpha/2) * jnp.sum(W**2)

      return (W_new, step + 1), (loss, lr)

    (W_final, _), (losses, lrs) = jax.lax.scan(scan_fn, (W, 0), (X_batched, y_batched))
    return W_final, losses, lrs

  # JIT-compiled version with static arguments
  _batch_forward_jit = staticmethod(
      jax.jit(_batch_forward_impl.__func__, static_argnums=(4, 5, 6))
  )

  @staticmethod
  def _batch_forward_no_jit(W: jnp.ndarray, X_batched: jnp.ndarray, y_batched: jnp.ndarray,
                             epoch: int, init_lr: float, decay: float, ridge_alpha: float):
    """
    Process all batches using Python loop (no JIT, for comparison).
    """
    num_batches = X_batched.shape[0]
    batch_size = X_batched.shape[1]
    
    losses = []
    lrs = []
    
    for step in range(num_batches):
      X_batch = X_batched[step]
      y_batch = y_batched[step]
      
      # Forward Pass
      y_pred = X_batch @ W

      # Gradient
      dW = (2 / batch_size) * (X_batch.T @ (y_pred - y_batch)) + ridge_alpha * W

      # Learning rate schedule
      num_steps = num_batches * epoch + step
      lr = init_lr / (1. + decay * num_steps)

      # Update Weights
      W = W - lr * dW

      # Loss
      loss = (1/batch_size) * jnp.sum((y_pred - y_batch) ** 2) + (ridge_alpha/2) * jnp.sum(W**2)
      losses.append(loss)
      lrs.append(lr)

    return W, jnp.array(losses), jnp.array(lrs)

  @staticmethod
  def _predict_impl(W: jnp.ndarray, X: jnp.ndarray) -> jnp.ndarray:
    """Core prediction logic."""
    return X @ W

  # JIT-compiled prediction
  _predict_jit = staticmethod(jax.jit(_predict_impl.__func__))

  # ============== Public API ==============

  def fit(self, X: jnp.ndarray, y: jnp.ndarray, verbose: bool = True) -> None:
    """
    Fit the linear regression model to the training data.

    Args:
        X (jnp.ndarray): Input features of shape (num_samples, num_features).
        y (jnp.ndarray): Target values of shape (num_samples,) or (num_samples, 1).
        verbose (bool): Whether to print progress. Default True.
    """
    num_samples = X.shape[0]
    num_features = X.shape[1]
    
    # Initialize weights
    self.W = jax.random.normal(self.key, shape=(num_features + 1, 1))  # (num_features + bias term, 1)
    
    # Add bias column
    X = jnp.hstack((jnp.ones(shape=(num_samples, 1)), X))  # (add column for bias term which will be one)
    y = y.reshape(-1, 1)  # Ensure y has shape (num_samples, 1)

    # Compute batch dimensions
    batch_comp = (num_samples // self.batch_size) * self.batch_size

    # Handle remainder samples by padding
    if num_samples != batch_comp:
      # Pad to make divisible by batch_size
      pad_size = self.batch_size - (num_samples - batch_comp)
      X_padded = jnp.vstack([X, jnp.zeros((pad_size, X.shape[1]))])
      y_padded = jnp.vstack([y, jnp.zeros((pad_size, 1))])
      num_batches = (num_samples + pad_size) // self.batch_size
    else:
      X_padded = X
      y_padded = y
      num_batches = num_samples // self.batch_size

    # Reshape for batched processing
    X_batched = X_padded.reshape(num_batches, self.batch_size, -1)
    y_batched = y_padded.reshape(num_batches, self.batch_size, -1)

    # Select forward function based on JIT setting
    forward_fn = self._batch_forward_jit if self.use_jit else self._batch_forward_no_jit

    # Training loop - epochs handled in Python, batches in JAX
    all_losses = []
    all_lrs = []
    
    for epoch in range(self.epochs):
      self.W, epoch_losses, epoch_lrs = forward_fn(
          self.W, X_batched, y_batched, epoch,
          self.init_lr, self.decay, self.ridge_alpha
      )
      
      avg_loss = jnp.mean(epoch_losses)
      all_losses.append(float(avg_loss))
      all_lrs.extend(epoch_lrs.tolist())
      if verbose:
        print(f"Epoch {epoch + 1}: Loss {avg_loss:.6f}")

    self.loss_progress = all_losses
    self.scheduler_progress = all_lrs

  def predict(self, X: jnp.ndarray) -> jnp.ndarray:
    """
    Predict the target values for the given input features.

    Args:
        X (jnp.ndarray): Input features of shape (num_samples, num_features).

    Returns:
        jnp.ndarray: Predicted target values of shape (num_samples, 1).
    """
    X = jnp.hstack((jnp.ones(shape=(X.shape[0], 1)), X))  # Add bias term
    if self.use_jit:
      return self._predict_jit(self.W, X)
    else:
      return self._predict_impl(self.W, X)

# %%
# Performance comparison: LinearRegression JIT vs Non-JIT
# Re-generate large dataset for fair comparison
key_data = jax.random.key(42)
key_data, X_key_bench, noise_key_bench = jax.random.split(key_data, 3)

X_bench = 2 * jax.random.normal(X_key_bench, shape=(100000, 5))
y_bench = 4.0 + jnp.sum(X_bench * jnp.array([1, 2, 3, 4, 5]), axis=1) + jax.random.normal(noise_key_bench, shape=(100000,))

def benchmark_linear_regression(X, y, key, use_jit, num_runs=3, epochs=3):
    """Benchmark LinearRegression with or without JIT."""
    times = []
    
    for i in range(num_runs):
        # Create new key for each run
        run_key = jax.random.fold_in(key, i)
        model = LinearRegression(run_key, lr=0.1, batch_size=16, epochs=epochs, use_jit=use_jit)
        
        start = time.perf_counter()
        model.fit(X, y, verbose=False)
        end = time.perf_counter()
        times.append(end - start)
    
    return np.mean(times), np.std(times)

print(f"Dataset size: {X_bench.shape[0]:,} samples, {X_bench.shape[1]} features")
print(f"Batch size: 16, Epochs: 3\n")

# Benchmark with JIT (warm-up first)
key_bench = jax.random.key(999)
print("Warming up JIT...")
warmup_model = LinearRegression(key_bench, lr=0.1, batch_size=16, epochs=1, use_jit=True)
warmup_model.fit(X_bench, y_bench, verbose=False)

# Now benchmark
jit_mean, jit_std = benchmark_linear_regression(X_bench, y_bench, key_bench, use_jit=True)
print(f"JIT-compiled:     {jit_mean*1000:.2f} ± {jit_std*1000:.2f} ms")

# Benchmark without JIT
no_jit_mean, no_jit_std = benchmark_linear_regression(X_bench, y_bench, key_bench, use_jit=False)
print(f"Non-JIT:          {no_jit_mean*1000:.2f} ± {no_jit_std*1000:.2f} ms")

# Speedup
speedup = no_jit_mean / jit_mean
print(f"\n🚀 Speedup: {speedup:.2f}x faster with JIT + jax.lax.scan")
