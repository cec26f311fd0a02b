# source: https://github.com/iamfaith99/risk-neutral-monte-carlo/blob/3270c2ac5c016cc779de9f0bf06ecf2f11adb253/benchmark_jax.py
# title: risk-neutral-monte-carlo's `benchmark_jax.py`: NumPy against JAX Monte Carlo pricing of an arithmetic Asian call, each call timed by a `@timer` decorator that reads `time.time()` around it, five timed calls averaged per path count after warm-up calls
# established-by: maintainer iamfaith99 (the repository's author; no issue discusses the benchmark's timing)
# cause: What a correct doctor reports, by the catalogue. The JAX side is never jitted: `arithmetic_asian_call_mc_jax` calls `_arithmetic_asian_call_mc_jax` under the comment 'Call the JIT-compiled pure function', and the script prints 'JIT compilation enabled: Yes', but no `jax.jit` is applied anywhere, so every timed call dispatches its dozen `jax.numpy` and `jax.random` operations one by one, five times per path count (LB114 at the timed call in the loop, 258's reading of an unjitted step called in a loop). The `@timer` wrapper reads the clock as soon as `func` returns the dispatched JAX scalars; they are converted with `float(...)` only after the timing (LB102 at the wrapper's call and at the timed call). The clock is `time.time()` (LB105 at the wrapper's start read). The warm-up calls and the discarded first run per path count keep the first-use compiles of the eager operations out of the figures (no LB103); each figure is the mean of five timed calls (no LB104); x64 is enabled (no LB108). Code: the file at commit 3270c2a, trimmed: the docstrings of the pricing functions, `plot_results` and the summary prints of `main` are left out; the rest unchanged.
# static: LB102, LB105, LB114
# dynamic: n/a
# inferred: LB102 (the decorated call returns unwaited JAX scalars; the catalogue's reading), LB105 (`time.time()` in the decorator; the catalogue's reading), LB114 (the pricer the comments call JIT-compiled is never jitted and is timed call by call in a loop; the catalogue's reading, as 258)
# lines: LB102:51/318, LB105:50, LB114:318
# first-sight: e4a92af 2026-12-06 py: found LB105:50 LB102:51; missed LB114:318; false LB114:246 LB114:257 LB114:266 LB114:314 | notebook: found LB105:50 LB102:51; missed LB114:318; false LB114:246 LB114:257 LB114:266 LB114:314

# Standard library imports
import time
from typing import Tuple, Dict, Callable

# Third-party imports
import numpy as np
import matplotlib.pyplot as plt
import jax
import jax.numpy as jnp
from jax import random

# Enable 64-bit precision for better numerical stability
jax.config.update("jax_enable_x64", True)

# Set a fixed random seed for reproducibility
np_seed = 42
base_jax_key = random.key(42)

# Parameters for benchmarking
S0 = 100.0        # Initial asset price
K = 100.0         # Strike price
r = 0.06          # Risk-free rate
sigma = 0.2       # Volatility
T = 1.0           # Time to maturity
delta = 0.03      # Dividend yield
n_steps = 252     # Number of time steps (daily for a year)
path_counts = [1000, 10000, 100000, 1000000]  # Different numbers of paths to test

def timer(func: Callable) -> Callable:
    """
    A decorator to measure execution time of functions.
    
    Args:
        func: The function to measure
        
    Returns:
        Wrapped function that returns result and execution time
    """
    def wrapper(*args, **kwargs):
        start_time = time.time()
        result = func(*args, **kwargs)
        end_time = time.time()
        execution_time = end_time - start_time
        return result, execution_time
    return wrapper

# NumPy Implementation
def generate_gbm_paths_numpy(
    S0: float,
    r: float,
    sigma: float,
    T: float,
    delta: float,
    n_steps: int,
    n_paths: int,
    antithetic: bool = False,
    seed: int = None
) -> np.ndarray:
    if seed is not None:
        np.random.seed(seed)
    
    dt = T / n_steps
    nudt = (r - delta - 0.5 * sigma**2) * dt
    sigsdt = sigma * np.sqrt(dt)
    
    # Initialize paths array with initial price
    paths = np.zeros((n_paths, n_steps + 1))
    paths[:, 0] = S0
    
    if antithetic:
        # For antithetic sampling, generate half the paths and then negate
        half_paths = n_paths // 2
        
        # Generate random numbers for half the paths
        Z = np.random.normal(size=(half_paths, n_steps))
        
        # Calculate the paths
        for i in range(1, n_steps + 1):
            paths[:half_paths, i] = paths[:half_paths, i-1] * np.exp(nudt + sigsdt * Z[:, i-1])
            paths[half_paths:, i] = paths[half_paths:, i-1] * np.exp(nudt + sigsdt * (-Z[:, i-1]))
    else:
        # Generate random numbers
        Z = np.random.normal(size=(n_paths, n_steps))
        
        # Calculate the paths
        for i in range(1, n_steps + 1):
            paths[:, i] = paths[:, i-1] * np.exp(nudt + sigsdt * Z[:, i-1])
    
    return paths

@timer
def arithmetic_asian_call_mc_numpy(
    S0: float,
    K: float,
    r: float,
    sigma: float,
    T: float,
    delta: float,
    n_steps: int,
    n_paths: int,
    antithetic: bool = False,
    seed: int = None
) -> Tuple[float, float]:
    # Generate asset price paths
    paths = generate_gbm_paths_numpy(S0, r, sigma, T, delta, n_steps, n_paths, antithetic, seed)
    
    # Calculate the arithmetic mean for each path
    arithmetic_mean = np.mean(paths, axis=1)
    
    # Calculate the payoff for each path
    payoffs = np.maximum(arithmetic_mean - K, 0.0)
    
    # Calculate the option price and standard error
    option_price = np.exp(-r * T) * np.mean(payoffs)
    std_error = np.exp(-r * T) * np.std(payoffs) / np.sqrt(n_paths)
    
    return option_price, std_error

# JAX Implementation
def generate_gbm_paths_jax(
    key,
    S0: float,
    r: float,
    sigma: float,
    T: float,
    delta: float,
    n_steps: int,
    n_paths: int,
    antithetic: bool = False
) -> jnp.ndarray:
    dt = T / n_steps
    nudt = (r - delta - 0.5 * sigma**2) * dt
    sigsdt = sigma * jnp.sqrt(dt)
    
    # Initialize paths array with initial price
    paths = jnp.zeros((n_paths, n_steps + 1))
    paths = paths.at[:, 0].set(S0)
    
    if antithetic:
        # For antithetic sampling, generate half the paths and then negate
        half_paths = n_paths // 2
        
        # Generate random numbers for half the paths
        key, subkey = random.split(key)
        Z = random.normal(subkey, (half_paths, n_steps))
        
        # Vectorized calculation for first half of paths
        increments = jnp.exp(nudt + sigsdt * Z)
        paths_first_half = S0 * jnp.cumprod(increments, axis=1)
        
        # Vectorized calculation for second half (antithetic)
        anti_increments = jnp.exp(nudt + sigsdt * (-Z))
        paths_second_half = S0 * jnp.cumprod(anti_increments, axis=1)
        
        # Combine the paths
        paths = paths.at[:half_paths, 1:].set(paths_first_half)
        paths = paths.at[half_paths:, 1:].set(paths_second_half)
    else:
        # Generate random numbers
        key, subkey = random.split(key)
        Z = random.normal(subkey, (n_paths, n_steps))
        
        # Vectorized calculation for all paths
        increments = jnp.exp(nudt + sigsdt * Z)
        path_values = S0 * jnp.cumprod(increments, axis=1)
        paths = paths.at[:, 1:].set(path_values)
    
    return paths

# Pure function for option pricing (without timing for JIT compatibility)
def _arithmetic_asian_call_mc_jax(
    key,
    S0: float,
    K: float,
    r: float,
    sigma: float,
    T: float,
    delta: float,
    n_steps: int,
    n_paths: int,
    antithetic: bool = False
) -> Tuple[float, float]:
    # Generate asset price paths
    paths = generate_gbm_paths_jax(key, S0, r, sigma, T, delta, n_steps, n_paths, antithetic)
    
    # Calculate the arithmetic mean for each path
    arithmetic_mean = jnp.mean(paths, axis=1)
    
    # Calculate the payoff for each path
    payoffs = jnp.maximum(arithmetic_mean - K, 0.0)
    
    # Calculate the option price and standard error
    option_price = jnp.exp(-r * T) * jnp.mean(payoffs)
    std_error = jnp.exp(-r * T) * jnp.std(payoffs) / jnp.sqrt(n_paths)
    
    return option_price, std_error

# Wrapper function that includes timing
@timer
def arithmetic_asian_call_mc_jax(
    key,
    S0: float,
    K: float,
    r: float,
    sigma: float,
    T: float,
    delta: float,
    n_steps: int,
    n_paths: int,
    antithetic: bool = False
) -> Tuple[float, float]:
    # Call the JIT-compiled pure function
    return _arithmetic_asian_call_mc_jax(key, S0, K, r, sigma, T, delta, n_steps, n_paths, antithetic)

def run_benchmarks() -> Dict:
    """
    Run benchmarks comparing NumPy and JAX implementations.
    
    Returns:
        Dictionary containing benchmark results
    """
    print("Running benchmarks comparing NumPy and JAX implementations...")
    print("=" * 80)
    
    results = {
        'numpy': {'paths': [], 'times': [], 'prices': [], 'errors': []},
        'jax': {'paths': [], 'times': [], 'prices': [], 'errors': []}
    }
    
    # Perform thorough warm-up runs for JAX to ensure JIT compilation happens before timing
    print("\nPerforming JIT compilation warm-up...")
    warmup_key = random.key(0)
    
    # Explicitly compile the JAX functions with different path counts
    print("  Compiling JAX functions...")
    for n_path in [100, 1000, 10000]:
        warmup_key, subkey = random.split(warmup_key)
        # Run once with standard sampling
        _ = _arithmetic_asian_call_mc_jax(subkey, S0, K, r, sigma, T, delta, n_steps, n_path, antithetic=False)
        
        # Run once with antithetic sampling
        warmup_key, subkey = random.split(warmup_key)
        _ = _arithmetic_asian_call_mc_jax(subkey, S0, K, r, sigma, T, delta, n_steps, n_path, antithetic=True)
    
    print("  Running timing warm-up iterations...")
    # Now run multiple iterations to stabilize timing
    for _ in range(3):
        warmup_key, subkey = random.split(warmup_key)
        _ = arithmetic_asian_call_mc_jax(subkey, S0, K, r, sigma, T, delta, n_steps, 1000, antithetic=False)
    
    print("Warm-up complete.")
    
    # Number of iterations to run for each benchmark to get more stable timing
    n_iterations = 5
    
    for n_paths in path_counts:
        print(f"\nBenchmarking with {n_paths:,} paths:")
        
        # Skip NumPy for very large path counts to avoid excessive runtime
        skip_numpy = n_paths >= 1000000
        
        if not skip_numpy:
            # NumPy implementation
            print("  Running NumPy implementation...")
            np_times = []
            np_prices = []
            np_errors = []
            
            for i in range(n_iterations):
                (np_price, np_error), np_time = arithmetic_asian_call_mc_numpy(
                    S0, K, r, sigma, T, delta, n_steps, n_paths, antithetic=False, seed=np_seed+i
                )
                np_times.append(np_time)
                np_prices.append(np_price)
                np_errors.append(np_error)
            
            # Average results using functional approach
            avg_np_time = sum(np_times) / len(np_times)
            avg_np_price = sum(np_prices) / len(np_prices)
            avg_np_error = sum(np_errors) / len(np_errors)
            
            results['numpy']['paths'].append(n_paths)
            results['numpy']['times'].append(avg_np_time)
            results['numpy']['prices'].append(avg_np_price)
            results['numpy']['errors'].append(avg_np_error)
            print(f"    Price: {avg_np_price:.4f}, Error: {avg_np_error:.4f}, Time: {avg_np_time:.4f}s (avg of {n_iterations} runs)")
        else:
            print("  Skipping NumPy implementation for large path count...")
        
        # JAX implementation
        print("  Running JAX implementation...")
        jax_times = []
        jax_prices = []
        jax_errors = []
        
        # Create a fresh JAX key for this benchmark
        current_key = random.fold_in(base_jax_key, n_paths)  # Use path count as a differentiator
        
        # First run: may still have some compilation overhead, discard timing
        current_key, subkey = random.split(current_key)
        _ = arithmetic_asian_call_mc_jax(subkey, S0, K, r, sigma, T, delta, n_steps, n_paths, antithetic=False)
        
        # Now run the actual timed iterations
        for i in range(n_iterations):
            current_key, subkey = random.split(current_key)
            
            # Use the timer decorator to measure execution time
            (jax_price, jax_error), jax_time = arithmetic_asian_call_mc_jax(
                subkey, S0, K, r, sigma, T, delta, n_steps, n_paths, antithetic=False
            )
            
            jax_times.append(jax_time)
            jax_prices.append(float(jax_price))
            jax_errors.append(float(jax_error))
        
        # Average results using functional approach
        avg_jax_time = sum(jax_times) / len(jax_times)
        avg_jax_price = sum(jax_prices) / len(jax_prices)
        avg_jax_error = sum(jax_errors) / len(jax_errors)
        
        results['jax']['paths'].append(n_paths)
        results['jax']['times'].append(avg_jax_time)
        results['jax']['prices'].append(avg_jax_price)
        results['jax']['errors'].append(avg_jax_error)
        print(f"    Price: {avg_jax_price:.4f}, Error: {avg_jax_error:.4f}, Time: {avg_jax_time:.4f}s (avg of {n_iterations} runs)")
        
        # Calculate speedup if NumPy was run
        if not skip_numpy:
            speedup = avg_np_time / avg_jax_time
            print(f"  JAX Speedup: {speedup:.2f}x")
            if speedup < 1:
                print(f"  Note: For small workloads, JAX overhead may dominate. JAX benefits increase with larger workloads.")
    
    return results

def main():
    """Main function to run benchmarks and plot results."""
    print("JAX-NumPy Monte Carlo Benchmarking")
    print("=" * 80)
    print(f"JAX version: {jax.__version__}")
    print(f"NumPy version: {np.__version__}")
    print(f"Available JAX devices: {jax.devices()}")
    print(f"Default JAX backend: {jax.default_backend()}")
    print(f"JIT compilation enabled: Yes")
    print(f"Vectorization enabled: Yes")
    
    # Run benchmarks
    results = run_benchmarks()
    
    print("\nBenchmark completed!")

if __name__ == "__main__":
    main()
