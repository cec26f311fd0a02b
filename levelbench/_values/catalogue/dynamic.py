"""LB2xx: what `levelbench.explain` (the dynamic doctor) finds by running a JAX function.

Data only; the probes that find each problem live in ``levelbench/_probing/probes``.
"""

from __future__ import annotations

from ..findings import Severity
from .rule import Rule

DYNAMIC: tuple[Rule, ...] = (
    Rule(
        code="LB201",
        name="unrolled-loop",
        severity=Severity.WARNING,
        summary="A Python loop is unrolled into the traced program: it grows with the sequence length.",
        why=(
            "Under `jax.jit` a Python `for` over the data runs at trace time and writes one copy of its body "
            "per step into the program. explain traces the call at a few lengths cut from the sequence axis "
            "(a guessed axis that does not grow is followed by every other axis of every array argument); "
            "equations that grow linearly (or with the square of the length, for nested loops) mean an "
            "unrolled loop, and it projects trace + compile time at your length (the seed GRU: 60 equations "
            "per step, minutes at 1000 steps). A loop over a global or a closure variable grows with no "
            "input: explain then counts the user's source lines while tracing once, and a loop body line "
            "that ran 16 times or more and made most of the program's equations is the evidence. In a "
            "function that is not jitted nothing is unrolled yet (the loop runs op by op, LB240): the "
            "growth is a note saying what jitting it whole would cost."
        ),
        bad="@jax.jit\ndef forward(params, xs):\n    h = h0\n    for x in xs:\n        h = cell(params, h, x)\n    return h",
        good="@jax.jit\ndef forward(params, xs):\n    h, _ = jax.lax.scan(lambda h, x: (cell(params, h, x), None), h0, xs)\n"
             "    return h",
        pitfall=5,
        cost="compile time grows with the loop length (the projection at your length is in the finding)",
    ),
    Rule(
        code="LB202",
        name="repeated-block",
        severity=Severity.WARNING,
        summary="The same block of equations repeats back to back in one trace: a loop unrolled, or about to be.",
        why=(
            "When no input axis can be scaled, explain looks for the same sequence of primitives repeated "
            "in the program: the footprint of a Python loop. Jitted, each repetition is traced and compiled "
            "again; not jitted, each runs op by op."
        ),
        bad="def f(key):\n    for _ in range(100):\n        key, sub = jax.random.split(key)\n    return key",
        good="def f(key):\n    return jax.lax.fori_loop(0, 100, lambda i, k: jax.random.split(k)[0], key)",
        pitfall=5,
        cost="a program as many times larger as the loop is long",
    ),
    Rule(
        code="LB210",
        name="recompiles-every-call",
        severity=Severity.ERROR,
        summary="Calls with identical arguments compile again: a jax.jit is created inside the function.",
        why=(
            "JAX caches compiled programs per function object. `jax.jit(g)(x)` inside a function, a "
            "`jit` of a fresh lambda or `functools.partial` each call, makes every call trace and compile. "
            "explain calls twice with the same arguments and counts compilations, with JAX's own cache-miss "
            "explanation. Outside jit a `lax.scan`/`while_loop`/`cond` compiles on every call too (its body is "
            "a new function each time): the fix is then jit of the outermost function, and the cost says that a "
            "function called once loses nothing."
        ),
        bad="def step(x):\n    return jax.jit(lambda y: y * 2)(x)",
        good="double = jax.jit(lambda y: y * 2)   # once\n\ndef step(x):\n    return double(x)",
        pitfall=3,
        cost="trace + compile time on every call",
    ),
    Rule(
        code="LB211",
        name="recompiles-on-change",
        severity=Severity.WARNING,
        summary="A call compiles again because an argument changed: its shape, dtype, structure, type or value.",
        why=(
            "Given a sequence of calls, explain names the argument whose abstract value changed before each "
            "compilation, with the old and new value, and the kind of change."
        ),
        bad="for n in range(1, 100):\n    f(x[:n])",
        good="for n in range(1, 100):\n    f(pad_to(x[:n], 128), n)   # a few shapes, the length as data",
        pitfall=4,
        cost="trace + compile time at every change",
    ),
    Rule(
        code="LB212",
        name="static-int-argument",
        severity=Severity.INFO,
        summary="A new value of a Python int argument compiles again (it is static or sets a shape).",
        why=(
            "Python numbers passed to a jitted function are baked into the program when they are static "
            "(`static_argnums`) or set a shape. Called with many values, each value compiles once."
        ),
        bad="f = jax.jit(f, static_argnums=1)\nfor i in range(1000):\n    f(x, i)",
        good="f = jax.jit(f)        # i as a traced value, when it does not set a shape\nfor i in range(1000):\n"
             "    f(x, jnp.int32(i))",
        pitfall=4,
        cost="one compilation per distinct value",
    ),
    Rule(
        code="LB220",
        name="returns-nothing",
        severity=Severity.ERROR,
        summary="The function returns nothing: XLA removes all of its work (a warning when it is not jitted).",
        why=(
            "A jitted program without outputs is dead code, removed whole by XLA; timings then measure "
            "dispatch only. Not jitted, the work runs, but jitting it as it stands would remove it."
        ),
        bad="@jax.jit\ndef forward(params, xs):\n    ys = model(params, xs)",
        good="@jax.jit\ndef forward(params, xs):\n    return model(params, xs)",
        pitfall=12,
        cost="the computation never runs; only dispatch is timed",
    ),
    Rule(
        code="LB221",
        name="constant-output",
        severity=Severity.WARNING,
        summary="Outputs are computed from constants only: the inputs do not reach them.",
        why=(
            "When no output depends on the inputs, XLA folds the program to constants and a timing measures "
            "nothing of the intended work (often an index or slice mistake)."
        ),
        bad="@jax.jit\ndef f(x):\n    return jnp.zeros(3) + 1.0",
        good="@jax.jit\ndef f(x):\n    return x + 1.0",
        pitfall=12,
        cost="the timed program does none of the work the source suggests",
    ),
    Rule(
        code="LB222",
        name="dead-matmuls",
        severity=Severity.WARNING,
        summary="Matmuls whose results never reach an output, or compiled FLOPs near zero where the source asks for many.",
        why=(
            "Work that no output uses is removed by XLA. explain follows the program backwards from the "
            "outputs and counts the matrix-multiply FLOPs that are dropped."
        ),
        bad="@jax.jit\ndef f(a, b):\n    c = a @ b        # unused\n    return a.sum()",
        good="@jax.jit\ndef f(a, b):\n    return (a @ b).sum()",
        pitfall=12,
        cost="the FLOPs the source asks for are not done",
    ),
    Rule(
        code="LB230",
        name="float64-inputs-in-float32",
        severity=Severity.WARNING,
        summary="float64 inputs (NumPy arrays, or Python floats that change the result) are computed in float32: jax_enable_x64 is off.",
        why=(
            "Without `jax_enable_x64`, JAX turns float64 arrays into float32. Compared with a float64 NumPy "
            "or PyTorch computation, it does different (half-precision) work. Python floats are float64 in "
            "Python and NumPy but float32 in JAX, without a warning: explain runs the call again with x64 on "
            "and reports Python float arguments when the outputs differ by more than float32 rounding "
            "(1e-4 relative), or when x64 gives a whole number past 2**24 that float32 turns into another "
            "(Python's 24552025.0 printed as 24552024.0), with both values; otherwise it says nothing."
        ),
        bad="x = np.random.default_rng(0).standard_normal((3000, 3000))   # float64\njax.jit(jnp.dot)(x, x)\n"
            "derivative(1.0, 1e-8)   # (f(x + h) - f(x)) / h: h is lost in float32",
        good='jax.config.update("jax_enable_x64", True)   # at the start of the program\njax.jit(jnp.dot)(x, x)',
        pitfall=8,
        cost="a float32 computation compared with a float64 one",
    ),
    Rule(
        code="LB231",
        name="float64-request-truncated",
        severity=Severity.WARNING,
        summary="float64 asked for in the function (a dtype, or Python floats and lists that change the result) is computed in float32.",
        why=(
            "`jnp.array(..., dtype=jnp.float64)` and similar requests give float32 when x64 is off, with a "
            "UserWarning that is easy to miss. explain catches the warning while tracing and points at the line. "
            "Python floats and lists inside the function (`jnp.array([1e-9, 2e-9])`) are float64 with x64 on "
            "and in NumPy, with no warning: explain compares the output with the same call with x64 on and "
            "reports, at the line where float64 enters the program, a difference beyond float32 rounding "
            "or a whole number past 2**24 that float32 changes."
        ),
        bad="def f(x):\n    return x * jnp.ones(3, dtype=jnp.float64)",
        good='jax.config.update("jax_enable_x64", True)\n\ndef f(x):\n    return x * jnp.ones(3, dtype=jnp.float64)',
        pitfall=8,
        cost="the computation runs in float32 while the code asks for float64",
    ),
    Rule(
        code="LB232",
        name="low-matmul-precision",
        severity=Severity.INFO,
        summary="float32 matmuls run at the GPU/TPU default precision (TF32 or bf16 passes).",
        why=(
            "On some accelerators JAX's default float32 matmul uses reduced-precision passes; PyTorch's "
            "default may differ. Speed and error are then not comparable."
        ),
        bad="jnp.dot(a, b)   # on a GPU/TPU, default precision",
        good='jax.config.update("jax_default_matmul_precision", "highest")\n'
             'torch.set_float32_matmul_precision("highest")',
        pitfall=9,
        cost="different numerics between the candidates",
    ),
    Rule(
        code="LB240",
        name="op-by-op",
        severity=Severity.WARNING,
        summary="An unjitted function runs op by op: one dispatch per primitive, timed against the same function jitted.",
        why=(
            "Each JAX operation outside `jit` is dispatched on its own, at a fixed cost of microseconds. "
            "explain counts the primitives per call and times the function as given and jitted; the fix is "
            "to jit the outermost function, once: for a gradient `jax.jit(jax.grad(f))`, not `jax.grad` of a "
            "jitted `f`, and the evidence gives the measured time of that fix. One or two dispatches are not "
            "'op by op' but JAX's eager per-call overhead (reported from a 3x gap). A function that compiles "
            "on every call is not reported here: its time is compilation (LB210). explain cannot see how "
            "often your program calls the function, so the cost says from which call on jit wins back its "
            "compilation; called fewer times, the function is faster as it is."
        ),
        bad="def step(params, x):\n    return jnp.tanh(params['w'] @ x + params['b'])\n\nfor x in xs:\n    step(params, x)",
        good="step = jax.jit(step)   # the outermost function, once\n\nfor x in xs:\n    step(params, x)\n"
             "grad_loss = jax.jit(jax.grad(loss))   # a gradient: jit outside grad",
        pitfall=6,
        cost="the dispatch cost of every primitive, on every call",
    ),
    Rule(
        code="LB250",
        name="numpy-inputs-copied",
        severity=Severity.WARNING,
        summary="NumPy inputs are copied to the device on every call.",
        why=(
            "A NumPy array passed to a jitted function is transferred each call; explain times "
            "`jax.device_put` of those inputs to show what that costs. A warning from 1 MiB of inputs, or "
            "from 64 KiB when the copy takes 100 us; below that a note (a few bytes cost latency, not bandwidth)."
        ),
        bad="x = np.ones((4096, 4096), np.float32)\nfor _ in range(100):\n    f(x)",
        good="x = jax.device_put(np.ones((4096, 4096), np.float32))\nfor _ in range(100):\n    f(x)",
        pitfall=10,
        cost="a host-to-device copy of every NumPy input per call",
    ),
    Rule(
        code="LB251",
        name="host-callbacks",
        severity=Severity.WARNING,
        summary="The program calls back into Python on the host (pure_callback, io_callback, debug printing).",
        why=(
            "A host callback stops the compiled program, moves data to the host and runs Python: a round "
            "trip per call (or per loop step)."
        ),
        bad="@jax.jit\ndef f(x):\n    jax.debug.print('x = {}', x)\n    return x * 2",
        good="@jax.jit\ndef f(x):\n    return x * 2   # print outside the timed function",
        pitfall=10,
        cost="a device-to-host round trip and Python per callback",
    ),
    Rule(
        code="LB252",
        name="host-reads",
        severity=Severity.WARNING,
        summary="Device values are read on the host inside the function (`float(x)`, `if x > 0`, `np.asarray`).",
        why=(
            "Reading a device value in Python waits for it and copies it; under `jit` it fails to trace. "
            "In a loop, each read is a synchronisation. explain finds them from the trace error (at its user "
            "line), through `jax.transfer_guard` on GPU/TPU, and on CPU, where the guard never fires, by "
            "counting the host reads (`jax.device_get`, `float()`, `.item()`, `.tolist()`, `np.asarray`) of one "
            "eager call at their user lines; reads JAX makes itself while tracing or lowering do not count."
        ),
        bad="def f(x):\n    if x.sum() > 0:\n        return x\n    return -x",
        good="def f(x):\n    return jnp.where(x.sum() > 0, x, -x)",
        pitfall=10,
        cost="a synchronisation and a copy per read",
    ),
    Rule(
        code="LB253",
        name="undonated-update",
        severity=Severity.INFO,
        summary="A jitted update copies a large input it overwrites: donate it (`donate_argnums`) and XLA updates in place.",
        why=(
            "`x.at[i].set(v)` under `jax.jit` cannot write into `x` while the caller holds it, so XLA copies "
            "all of `x` on every call. explain finds an input of 1 MiB or more that feeds a scatter or "
            "dynamic_update_slice and comes back as an output of the same shape and dtype, and measures "
            "`jax.jit(f, donate_argnums=...)` beside the function as given, each call's output fed to the next "
            "(as an update step is used), after checking both agree. A note: whether the copy matters "
            "depends on how often your code updates; where XLA cannot use the donation it warns, and the "
            "finding says so."
        ),
        bad="step = jax.jit(lambda x, i, v: x.at[i].set(v))\nfor i in range(n):\n    x = step(x, i, 1.0)",
        good="step = jax.jit(lambda x, i, v: x.at[i].set(v), donate_argnums=(0,))\nfor i in range(n):\n"
             "    x = step(x, i, 1.0)   # the old x is not used again",
        cost="a copy of the updated input per call",
    ),
    Rule(
        code="LB260",
        name="roofline",
        severity=Severity.INFO,
        summary="Achieved FLOP/s and memory bandwidth against the machine's peak: compute-, memory- or overhead-bound.",
        why=(
            "XLA's cost analysis gives the program's FLOPs and bytes; with the steady time and the machine's "
            "measured peak (large NumPy GEMMs, a 64 MiB copy) that says how close the program runs to what "
            "the hardware allows, and what bounds it. Bytes are the program's inputs, constants and outputs "
            "(not XLA's sum over ops, which counts fused intermediates); a program under 1 MiB, or one moving "
            "bytes faster than memory can, runs from cache and is never called memory-bound; no share above "
            "100% and no negative cost is reported."
        ),
        bad="levelbench.explain(f, x)   # 3% of peak FLOP/s, 2% of bandwidth: far below both",
        good="# more work per call (batch with jax.vmap), fewer, larger operations",
        cost="the gap to the machine's peak",
    ),
    Rule(
        code="LB261",
        name="no-cost-analysis",
        severity=Severity.INFO,
        summary="XLA gave no usable cost analysis (missing, empty or -1), so no rate is derived from it.",
        why="Some programs and backends report no FLOP count; explain says so instead of printing a rate from nothing.",
        bad="levelbench.explain(f, x)",
        good="levelbench.compare({...}, ...) with flops= given for the candidate",
        cost="no FLOP/s figure",
    ),
    Rule(
        code="LB262",
        name="dense-kernel",
        severity=Severity.INFO,
        summary="The program's dominant matmul timed alone in XLA, NumPy and PyTorch, each in its own process, as % of peak.",
        why=(
            "Once the work is the same, is XLA's CPU kernel for this matmul as fast as the BLAS call NumPy or "
            "PyTorch makes? explain takes the dot_general that carries most of the program's FLOPs (its shapes "
            "and dtype from the jaxpr), and times it in canonical (batch, m, k) @ (batch, k, n) form as "
            "jax.jit(jnp.matmul), np.matmul and torch.matmul, each built and timed in a worker process of its "
            "own (a framework's thread pool slows whatever shares its process), the same inputs checked to "
            "agree, interleaved. Each is a share of the machine's measured GEMM peak, beside the share the "
            "whole program's matmuls reach. A warning only when a library is faster by more than 10% at 95%, "
            "seen again by fresh workers timed in the other order, and XLA's kernel alone is no slower than the "
            "whole program per matmul (else the isolated figure was the machine, not the kernel). XLA's "
            "alternatives the installed jaxlib offers (Eigen, XNNPACK or oneDNN dot, precision=HIGHEST) are "
            "measured on the whole program, each in its own worker, and kept in the fix only when faster "
            "than both the default and the default compiled again (the noise floor). CPU only."
        ),
        bad="jax.jit(jnp.matmul)(x, y)   # 'slower than np.dot?'",
        good="levelbench.explain(jax.jit(jnp.matmul), x, y)   # LB262: XLA, NumPy, PyTorch % of peak, isolated",
        cost="the measured gap on the kernel alone",
    ),
    Rule(
        code="LB270",
        name="compile-share",
        severity=Severity.INFO,
        summary="What compilation costs next to running: trace / lower / compile / first run / steady, as N steady calls.",
        why=(
            "A jitted function pays its compilation once per new program. explain times the stages one by "
            "one, cold (JAX's caches cleared first, so calling the function before explain, or its jitted "
            "helpers being traced already, does not shrink it), and says how many steady calls they cost. "
            "Only compilation your code pays is reported: an unjitted function gets no LB270 for explain's "
            "own jit of it (LB240 says what jitting it would cost and when that pays back)."
        ),
        bad="%time f(x)   # the first call, compile included",
        good="compiled = jax.jit(f).lower(x).compile()   # ahead of time; then time compiled(x)",
        pitfall=2,
        cost="compile time, once per program",
    ),
    Rule(
        code="LB280",
        name="torch-autograd",
        severity=Severity.WARNING,
        summary="A PyTorch module records the autograd graph on each call.",
        why=(
            "explain times the module as given and under `torch.inference_mode()`; the difference is the "
            "autograd bookkeeping an inference benchmark should not pay."
        ),
        bad="levelbench.explain(model, x)",
        good="with torch.inference_mode():\n    y = model(x)",
        pitfall=17,
        cost="autograd bookkeeping on every call (the measured difference is in the finding)",
    ),
    Rule(
        code="LB281",
        name="torch-train-mode",
        severity=Severity.WARNING,
        summary="A PyTorch module is in training mode (a warning when it has dropout or batch norm).",
        why="`model.train()` keeps dropout and batch-norm statistics updates on: not the inference computation.",
        bad="model = Net()\nlevelbench.explain(model, x)",
        good="model = Net().eval()",
        pitfall=17,
        cost="dropout and batch-norm updates in every call",
    ),
    Rule(
        code="LB282",
        name="torch-threads",
        severity=Severity.INFO,
        summary="PyTorch's thread count differs from the cores XLA uses.",
        why=(
            "XLA:CPU uses every core it may run on; `torch.utils.benchmark` and some setups run PyTorch on "
            "one thread. Compared that way, the thread counts are measured, not the frameworks."
        ),
        bad="torch.set_num_threads(1)\n# ... compared with XLA on all cores",
        good="torch.set_num_threads(len(os.sched_getaffinity(0)))",
        pitfall=14,
        cost="a comparison of thread counts",
    ),
    Rule(
        code="LB283",
        name="torch-device-dtype",
        severity=Severity.INFO,
        summary="The module's parameters and inputs: their devices and dtypes (float64 or mixed devices flagged).",
        why="A float64 model, or parameters and inputs on different devices, run another computation than intended.",
        bad="model.double()   # compared with float32 JAX",
        good="model.float()",
        cost="different work from the intended one",
    ),
    Rule(
        code="LB290",
        name="jit-disabled",
        severity=Severity.ERROR,
        summary="`jax_disable_jit` is on: every jitted function runs op by op.",
        why="With jit disabled JAX runs everything eagerly, one dispatch per primitive, whatever the decorators say.",
        bad='jax.config.update("jax_disable_jit", True)',
        good='jax.config.update("jax_disable_jit", False)   # or remove the line',
        pitfall=18,
        cost="op-by-op dispatch of the whole program",
    ),
    Rule(
        code="LB291",
        name="debug-flags",
        severity=Severity.WARNING,
        summary="JAX debug settings are on (`jax_debug_nans`, `debug_infs`, `enable_checks`, `log_compiles`).",
        why="Debug checks add work and host round trips to every call; they are for finding bugs, not for timing.",
        bad='jax.config.update("jax_debug_nans", True)',
        good='jax.config.update("jax_debug_nans", False)   # while timing',
        pitfall=18,
        cost="extra checks and host round trips on every call",
    ),
    Rule(
        code="LB299",
        name="could-not-diagnose",
        severity=Severity.INFO,
        summary="A diagnosis could not be made for a candidate (it is extra information: the run goes on).",
        why="`levelbench run` diagnoses each JAX candidate after timing it; when explain fails on one, it says why.",
        bad="levelbench run --workload my.py:W   # a candidate explain cannot trace",
        good="levelbench explain my.py::forward   # to see the error in full",
        cost="no diagnosis for that candidate",
    ),
)
