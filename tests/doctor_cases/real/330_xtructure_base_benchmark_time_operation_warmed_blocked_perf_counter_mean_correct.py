# source: https://github.com/tinker495/Xtructure/blob/75d2a93e69efe13292fbb8ae4b801aee2ab200c4/benchmarks/common/base_benchmark.py
# title: Xtructure `benchmarks/common/base_benchmark.py`: the `BaseBenchmark` class whose `time_operation` runs two waited warm-up calls, then `num_iterations` `perf_counter` samples, each around a call and `jax.block_until_ready` of its result, and returns their mean
# established-by: maintainer tinker495 (the library's benchmark harness for its JAX Stack, Queue, HashTable and BGPQ structures against Python ones)
# cause: Correct benchmark code. `time_operation` calls the operation twice untimed and waits for each result with `jax.block_until_ready` ('This ensures JIT compilation completes before actual timing'), then times each of `num_iterations` calls (3 by default) with its own `perf_counter` pair around the call and `jax.block_until_ready(result)`, which waits for a whole pytree (the Xtructure structures the operations return), and reports the mean of the samples, not one reading. The same helper times the Python-list baselines, where `block_until_ready` of a list of `None` returns at once. Which operations are timed, and whether each is jitted, is the concern of the per-structure files (`stack_benchmark.py` and others), not of this harness. No issue discusses the file; the reading is the catalogue's. Code: the file as stored at commit 75d2a93, trimmed: `print_progress`, the two report printers and the three helper functions after the class (result tables, a `safe_benchmark_operation` wrapper, a `jax.config` set-up, number formatting) are left out; nothing in them is timed.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: de40b29 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

"""
Base benchmark class and utilities for Xtructure benchmarks.
"""

import time
import statistics
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import List, Callable, Any, Optional

import jax


@dataclass
class BenchmarkResult:
    """Results from a single benchmark test"""
    operation: str
    data_structure: str
    size: int
    time_ms: float
    throughput_ops_per_sec: float
    memory_mb: Optional[float] = None
    notes: Optional[str] = None


class BaseBenchmark(ABC):
    """
    Base class for data structure benchmarks.
    
    Provides common timing and result management functionality.
    """
    
    def __init__(self, name: str, test_sizes: Optional[List[int]] = None, num_iterations: int = 3):
        """
        Initialize benchmark.
        
        Args:
            name: Name of the benchmark
            test_sizes: List of sizes to test
            num_iterations: Number of iterations per test
        """
        self.name = name
        self.test_sizes = test_sizes or [100, 1000, 5000, 10000]
        self.num_iterations = num_iterations
        self.results: List[BenchmarkResult] = []
    
    def time_operation(self, func: Callable, *args, **kwargs) -> float:
        """
        Time a function call and return elapsed time in milliseconds.
        Uses jax.block_until_ready() for accurate JAX operation timing.
        
        Args:
            func: Function to time
            *args: Arguments for function
            **kwargs: Keyword arguments for function
            
        Returns:
            Average execution time in milliseconds
        """
        times = []
        
        # Warmup runs with proper synchronization
        for _ in range(min(2, self.num_iterations)):
            try:
                result = func(*args, **kwargs)
                # Use jax.block_until_ready for proper synchronization during warmup
                # This ensures JIT compilation completes before actual timing
                result = jax.block_until_ready(result)
            except Exception:
                pass  # Ignore warmup errors
        
        # Actual timing runs
        for _ in range(self.num_iterations):
            start = time.perf_counter()
            result = func(*args, **kwargs)
            
            # Use jax.block_until_ready for proper synchronization
            # This handles both single arrays and pytrees correctly
            result = jax.block_until_ready(result)
            
            end = time.perf_counter()
            times.append((end - start) * 1000)  # Convert to ms
        
        return statistics.mean(times)
    
    def add_result(self, operation: str, data_structure: str, size: int, 
                  time_ms: float, notes: Optional[str] = None) -> None:
        """
        Add a benchmark result.
        
        Args:
            operation: Name of the operation
            data_structure: Name of the data structure
            size: Size of the test data
            time_ms: Execution time in milliseconds
            notes: Optional notes about the test
        """
        throughput = size / time_ms * 1000 if time_ms > 0 else 0
        
        result = BenchmarkResult(
            operation=operation,
            data_structure=data_structure,
            size=size,
            time_ms=time_ms,
            throughput_ops_per_sec=throughput,
            notes=notes
        )
        
        self.results.append(result)
    
    def clear_results(self) -> None:
        """Clear all benchmark results"""
        self.results.clear()
    
    def get_results(self) -> List[BenchmarkResult]:
        """Get all benchmark results"""
        return self.results.copy()
    
    @abstractmethod
    def run_xtructure_benchmarks(self) -> None:
        """Run benchmarks for Xtructure data structures"""
        pass
    
    @abstractmethod
    def run_python_benchmarks(self) -> None:
        """Run benchmarks for Python data structures"""
        pass
    
    def run_all_benchmarks(self) -> List[BenchmarkResult]:
        """
        Run all benchmarks and return results.
        
        Returns:
            List of benchmark results
        """
        print(f"\n=== {self.name} Benchmarks ===")
        
        self.clear_results()
        
        try:
            print("Running Xtructure benchmarks...")
            self.run_xtructure_benchmarks()
            
            print("Running Python benchmarks...")
            self.run_python_benchmarks()
            
            print(f"Completed {len(self.results)} benchmark tests")
            
        except Exception as e:
            print(f"Error during benchmark: {e}")
            raise
        
        return self.get_results()
