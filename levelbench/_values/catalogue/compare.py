"""LB3xx: what `levelbench.compare` (and `levelbench run`) finds about the candidates and the comparison."""

from __future__ import annotations

from ..findings import Severity
from .rule import Rule

COMPARE: tuple[Rule, ...] = (
    Rule(
        code="LB301",
        name="different-inputs",
        severity=Severity.ERROR,
        summary="The candidates' array inputs differ in shape, dtype or device.",
        why=(
            "A comparison is fair only when every candidate works on the same data. levelbench matches the "
            "array arguments in order and names each difference (the dot question's `np.random.normal((n, n))` "
            "made a 2-element array)."
        ),
        bad="x_np = np.random.normal((3000, 3000))       # loc=(3000, 3000): a 2-element array\n"
            "levelbench.compare({'numpy': (np.dot, (x_np, x_np)), 'jax': (jnp.dot, (x, x))})",
        good="x_np = np.random.default_rng(0).standard_normal((3000, 3000)).astype(np.float32)\n"
             "x = jnp.asarray(x_np)",
        cost="the candidates do different work on different data",
    ),
    Rule(
        code="LB302",
        name="not-the-same-computation",
        severity=Severity.ERROR,
        summary="A candidate's output disagrees with its group's reference beyond dtype-aware rounding.",
        why=(
            "Before timing, each candidate's output is compared with the first one of its group (normwise, "
            "with a tolerance set by the dtype). A disagreement means a different formula, axis or dtype: "
            "the seed GRU's two models normalised over different axes."
        ),
        bad="rows = lambda x: x / np.linalg.norm(x, axis=-1, keepdims=True)\nwhole = lambda x: x / np.linalg.norm(x)",
        good="# the same normalisation in both\nrtol=/atol= when the difference is expected rounding",
        cost="a time ratio between two different computations",
    ),
    Rule(
        code="LB303",
        name="implausibly-fast",
        severity=Severity.ERROR,
        summary="A candidate runs faster than this machine's theoretical peak FLOP/s allows for its work.",
        why=(
            "With the FLOPs per call (declared, from XLA or PyTorch) and the CPU's theoretical peak (cores x SIMD "
            "lanes x FMA units x 2 x the highest clock, every unknown erring high: `levelbench env` shows it), "
            "a time below work / peak cannot include the work: a lambda returned, a dead program, a result "
            "never waited for. The practical peak (what the BLAS reached) is never used here: a correct "
            "program may beat it, and then raises it."
        ),
        bad="levelbench.compare({'numpy': (np.dot, (a, b)), 'wrapped': (lambda a, b: (lambda: np.dot(a, b)), (a, b))})",
        good="levelbench.compare({'numpy': (np.dot, (a, b)), 'jax': (jax.jit(jnp.dot), (ja, jb))})",
        pitfall=11,
        cost="the timing cannot include the work",
    ),
    Rule(
        code="LB304",
        name="different-work",
        severity=Severity.WARNING,
        summary="A candidate does more than 10% different FLOPs per call than the baseline.",
        why=(
            "NumPy's `x @ x.T` takes BLAS's SYRK path and computes half the products of a general GEMM; "
            "timed against `jnp.dot(x, y)` it looks twice as fast for doing half the work."
        ),
        bad="np.dot(x, x.T)   # SYRK: n^3 FLOPs\njnp.dot(x, x.T)  # a full GEMM: 2 n^3",
        good="np.dot(x, y)     # distinct operands: a full GEMM everywhere\njnp.dot(x, y)",
        pitfall=16,
        cost="a time ratio between different amounts of work",
    ),
    Rule(
        code="LB305",
        name="candidates-interfere",
        severity=Severity.WARNING,
        summary="Timed one right after another in one process, the candidates slow each other down.",
        why=(
            "After a call returns, NumPy's OpenBLAS threads keep a core busy for ~0.1 s and PyTorch's OpenMP "
            "threads for ~10 ms; whatever runs next gets one core fewer (docs/design/isolation.md). In one process "
            "levelbench waits for them before each candidate's block and also times each candidate right "
            "after the previous one; this finding gives both ratios when they differ by more than 5%."
        ),
        bad="levelbench.compare({'numpy': (np.dot, (x, y)), 'torch': (torch.mm, (tx, ty))})   # one process",
        good="levelbench.compare({'numpy': 'bench.py:numpy_dot', 'torch': 'bench.py:torch_mm'}, isolate=True)\n"
             "# or: levelbench run --workload bench.py:MY_WORKLOAD",
        pitfall=14,
        cost="plain interleaving in one process misstates the ratios (measured: jax 1.4x and torch 2.2x their solo times)",
    ),
)
