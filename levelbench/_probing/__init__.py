"""Diagnose a JAX function by running it: ranked findings with measured evidence and the fix.

``levelbench.explain(fn, *args)`` traces, compiles, calls and times ``fn`` through a series of
small probes (unrolled loops, recompilation, dead work, precision, dispatch, transfers, roofline,
compile share; PyTorch modules get their own) and returns a `Diagnosis`. Findings use codes LB2xx:

=====  ==========  ================================================================
code   probe       what it means
=====  ==========  ================================================================
LB201  unrolled    the program grows linearly with the sequence length: a Python loop is unrolled
LB202  unrolled    one block of identical equations repeats back to back in a single trace
LB210  retrace     identical calls compile again: a jax.jit is created inside the function
LB211  retrace     a call compiles after an argument changed (shape, dtype, structure, value, identity)
LB212  retrace     a new value of a Python int argument compiles again (static)
LB220  dead        the function returns nothing: XLA removes all the work
LB221  dead        the outputs do not depend on the inputs: XLA computes a constant
LB222  dead        work whose results are never returned is removed
LB230  precision   float64 NumPy inputs computed in float32 (x64 off)
LB231  precision   a float64 dtype request truncated to float32 (JAX's warning, with its line)
LB232  precision   float32 matmuls at the reduced default precision of GPU/TPU
LB240  dispatch    an unjitted function dispatches op by op; timed against itself jitted
LB250  transfers   NumPy inputs copied to the device on every call
LB251  transfers   host callbacks inside the compiled program
LB252  transfers   the function reads device values on the host
LB253  donation    a jitted update copies a large input it overwrites: donate_argnums, measured
LB260  roofline    achieved FLOP/s and bandwidth against the machine's peak
LB261  roofline    XLA's cost analysis is missing or invalid (-1): no roofline
LB262  kernels     the dominant matmul alone in XLA, NumPy, PyTorch (isolated workers): % of peak
LB270  compile     trace / lower / compile / first run / steady, and when jit pays back
LB280  torch       PyTorch records autograd on every call
LB281  torch       the module is in training mode
LB282  torch       PyTorch's thread count differs from the cores XLA uses
LB283  torch       device and dtype (float64 or mixed devices flagged)
LB290  config      jax_disable_jit is on
LB291  config      a JAX debug option (debug_nans, debug_infs, enable_checks, log_compiles) is on
=====  ==========  ================================================================
"""

from .arguments import Call
from .._results.diagnosis import Diagnosis
from .diagnose import QUICK_PROBES
from .diagnose import explain
from .probes import probe_names
from .target import ExplainFailed
from .target import explain_target

__all__ = ["Call", "Diagnosis", "ExplainFailed", "QUICK_PROBES", "explain", "explain_target", "probe_names"]
