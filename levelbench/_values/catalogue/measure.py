"""LB0xx: what `levelbench.measure` (and every measurement inside `compare` and `run`) checks about itself."""

from __future__ import annotations

from ..findings import Severity
from .rule import Rule

MEASURE: tuple[Rule, ...] = (
    Rule(
        code="LB001",
        name="returned-a-function",
        severity=Severity.ERROR,
        summary="The timed call returned a function: nothing was computed.",
        why=(
            "`%timeit lambda: model(x)` (or `measure(lambda: lambda: model(x))`) times creating a function "
            "object; the model never runs. levelbench looks at what the first call returned: a callable that "
            "is not an array means the work was wrapped, not done."
        ),
        bad="levelbench.measure(lambda: lambda: model(x))\n%timeit lambda: model(x)",
        good="levelbench.measure(model, x)\n%timeit model(x)",
        pitfall=11,
        cost="the time is that of creating a function object (nanoseconds), not of the model",
    ),
    Rule(
        code="LB002",
        name="jitted-result-empty",
        severity=Severity.ERROR,
        summary="A jitted function returns nothing, so XLA removed all its work and only dispatch was timed.",
        why=(
            "Under `jax.jit` a computation whose result is never returned is dead code: XLA deletes it. The "
            "compiled call then only dispatches an empty program (a few microseconds), however large the "
            "model looks in the source."
        ),
        bad="@jax.jit\ndef forward(params, xs):\n    ys = [cell(params, x) for x in xs]   # built, never returned",
        good="@jax.jit\ndef forward(params, xs):\n    return jnp.stack([cell(params, x) for x in xs])",
        pitfall=12,
        cost="the time is dispatch overhead only; the computation never runs",
    ),
    Rule(
        code="LB003",
        name="noisy-measurement",
        severity=Severity.WARNING,
        summary="The samples spread widely: the interquartile range is over 10% of the median.",
        why=(
            "Other programs, frequency changes or thread pools fighting for cores make samples vary. A spread "
            "this wide hides differences smaller than itself; interleaved comparison cancels slow drift, "
            "but not noise within a sample. On a virtual machine, CPU steal time (another virtual machine "
            "on the same host running on its CPUs, read from /proc/stat) is recorded over the sampling and "
            "named when it is a likely cause. Decided on a bootstrap 95% interval of IQR / median: an "
            "interval that straddles 10% gives the finding marked borderline."
        ),
        bad="levelbench.measure(f, x)   # while a build runs on the same cores",
        good="levelbench.measure(f, x, budget=20)   # on a quiet machine, or pinned: taskset -c 2,3 python ...",
        cost="differences smaller than the noise cannot be trusted",
    ),
    Rule(
        code="LB004",
        name="dispatch-bound",
        severity=Severity.WARNING,
        summary="The call takes within 5x of the framework's dispatch floor: per-call overhead, not work, is timed.",
        why=(
            "Every framework pays a fixed cost per call (Python, argument checks, launching). levelbench "
            "times an empty call of the same framework; when that floor is a fifth or more of the median, "
            "the time barely follows the work (in benchmarks/dispatch_bound.py every such call grew by at most "
            "1.74x when its work doubled, where pure work doubles) and says nothing about the framework's "
            "kernels. Several public 'JAX is slow' reports time microsecond operations. The evidence gives the median, the floor "
            "and the floor's share of the call."
        ),
        bad="x = jnp.ones(3)\nlevelbench.measure(jax.jit(jnp.sin), x)",
        good="x = jnp.ones((4096, 4096))\nlevelbench.measure(jax.jit(jnp.sin), x)   # a larger problem\n"
             "levelbench.measure(jax.jit(jax.vmap(f)), xs)   # or many small calls batched into one",
        pitfall=7,
        cost="the time is the framework's fixed overhead per call",
    ),
    Rule(
        code="LB005",
        name="cold-start",
        severity=Severity.INFO,
        summary="The first call took over 10x the steady state; the note says how much of it was compilation.",
        why=(
            "A jitted function traces and compiles on its first call. Timed once without a warm-up "
            "(`%time f(x)`), that cost is reported as the function's speed. levelbench times the first call "
            "apart and names the compile share."
        ),
        bad="%time f(x)",
        good="f(x).block_until_ready()   # warm up once\n%timeit f(x).block_until_ready()\n"
             "# or compile ahead of time: compiled = jax.jit(f).lower(x).compile()",
        pitfall=2,
        cost="a single unwarmed timing reports compilation as run time",
    ),
    Rule(
        code="LB006",
        name="recompiled-while-sampling",
        severity=Severity.WARNING,
        summary="JAX compiled again during steady-state sampling; those samples were discarded.",
        why=(
            "Calls that should reuse the compiled program compiled a new one: an argument's shape, dtype or "
            "static value changes, or a jit is created per call. Each such call pays trace and compile time."
        ),
        bad="for n in range(10, 100):\n    f(x[:n])          # a new shape each call: a new program",
        good="f = jax.jit(f)     # once, outside any loop\nf(pad_to(x, 128))  # shapes from a few buckets",
        pitfall=4,
        cost="every recompiling call pays trace + compile time again",
    ),
    Rule(
        code="LB007",
        name="numpy-input-to-jax",
        severity=Severity.WARNING,
        summary="A JAX function gets NumPy arrays: each call copies them to the device first.",
        why=(
            "A NumPy array passed to a jitted function is transferred on every call. Timed, the copy is "
            "counted as the function's work; on a GPU it can dominate."
        ),
        bad="x = np.ones((1000, 1000), np.float32)\nlevelbench.measure(f, x)",
        good="x = jax.device_put(np.ones((1000, 1000), np.float32))   # once, before timing\nlevelbench.measure(f, x)",
        pitfall=10,
        cost="a host-to-device transfer is timed on every call",
    ),
    Rule(
        code="LB008",
        name="ci-not-reached",
        severity=Severity.INFO,
        summary="The median's confidence interval did not narrow to the target within the budget.",
        why=(
            "levelbench samples until the 95% CI of the median is within the target (+-1% for measure, "
            "+-2% of every ratio for compare) or the budget ends. The numbers are still right; the interval "
            "printed beside them is wider than asked."
        ),
        bad="levelbench.measure(slow_fn, x, budget=0.5)",
        good="levelbench.measure(slow_fn, x, budget=10)",
        cost="a wider confidence interval than asked for",
    ),
    Rule(
        code="LB010",
        name="torch-autograd-on",
        severity=Severity.WARNING,
        summary="PyTorch ran with autograd on: the output records a graph for a backward pass.",
        why=(
            "Outside `torch.inference_mode()` / `torch.no_grad()` every operation on parameters records the "
            "autograd graph and keeps activations alive. A forward pass timed that way is slower than the "
            "inference it is compared with."
        ),
        bad="levelbench.measure(model, x)",
        good="def forward(x):\n    with torch.inference_mode():\n        return model(x)\n\nlevelbench.measure(forward, x)",
        pitfall=17,
        cost="autograd bookkeeping and saved activations on every call",
    ),
    Rule(
        code="LB011",
        name="torch-training-mode",
        severity=Severity.WARNING,
        summary="A PyTorch module is in training mode.",
        why=(
            "`model.train()` (the default) keeps dropout active and batch norm updating its statistics: "
            "another computation than inference, and different outputs."
        ),
        bad="model = Net()\nlevelbench.measure(model, x)",
        good="model = Net().eval()\nlevelbench.measure(model, x)",
        pitfall=17,
        cost="dropout and batch-norm updates are timed with the model",
    ),
)
