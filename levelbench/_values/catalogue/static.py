"""LB1xx: what the static doctor finds in scripts and notebooks without running them.

Data only, and the one source of each rule's words; the check that finds each problem is the rule's module in
``levelbench/doctor/rules/`` (``lb1xx_<what>.py``).
"""

from __future__ import annotations

from ..findings import Severity
from .rule import Rule

STATIC: tuple[Rule, ...] = (
    Rule(
        code="LB100",
        name="unreadable-input",
        severity=Severity.ERROR,
        summary="A path could not be analysed: missing, binary, too large, a syntax error, or a broken notebook.",
        why=(
            "The doctor reads Python files and Jupyter notebooks without running them. A file it cannot "
            "parse is reported with one line saying why, and the run goes on with the other files."
        ),
        bad="def f(:\n    pass",
        good="def f():\n    pass",
        cost="the file is not checked at all",
    ),
    Rule(
        code="LB101",
        name="timed-callable-never-called",
        severity=Severity.ERROR,
        summary="The timed statement builds or names a function but never calls it.",
        why=(
            "`%timeit lambda: f(x)` times the creation of a lambda (tens of nanoseconds); `f` never runs. "
            "`timeit.timeit(lambda: g)` times returning the function object `g`. The number printed has "
            "nothing to do with the model, and comparisons built on it are meaningless."
        ),
        bad="%timeit lambda: step(x).block_until_ready()\ntimeit.timeit(lambda: step, number=100)",
        good=(
            "step(x).block_until_ready()  # warm-up\n%timeit step(x).block_until_ready()\n"
            "timeit.timeit(lambda: step(x).block_until_ready(), number=100)"
        ),
        pitfall=11,
        cost=(
            "the number printed is the cost of building or returning a function object (nanoseconds), "
            "unrelated to the work"
        ),
        fix_safety="safe",
    ),
    Rule(
        code="LB102",
        name="unblocked-jax-timing",
        severity=Severity.ERROR,
        summary="A JAX result is timed without waiting for it (no block_until_ready or host conversion).",
        why=(
            "JAX dispatches work asynchronously: a call returns as soon as the work is queued. Timing the "
            "call without `block_until_ready()` measures the dispatch, not the computation (JAX's own docs: "
            "0.27 ms unblocked vs 4.9 ms blocked for a 1000x1000 dot on CPU), and the time is flat in the "
            "problem size."
        ),
        bad=(
            "%timeit f(x)\n\nt0 = time.perf_counter()\nfor _ in range(100):\n    y = f(x)\n"
            "elapsed = (time.perf_counter() - t0) / 100"
        ),
        good=(
            "%timeit f(x).block_until_ready()\n\nt0 = time.perf_counter()\nfor _ in range(100):\n    y = f(x)\n"
            "jax.block_until_ready(y)  # a whole pytree; the last result waits for the queue\n"
            "elapsed = (time.perf_counter() - t0) / 100"
        ),
        pitfall=1,
        cost=(
            "the time is dispatch only, flat in the problem size (JAX docs, 1000x1000 dot on CPU: 0.27 ms "
            "unblocked vs 4.9 ms)"
        ),
        fix_safety="safe",
    ),
    Rule(
        code="LB103",
        name="compile-in-timing",
        severity=Severity.WARNING,
        summary="The first call of a jitted function is timed, so tracing and XLA compilation are included.",
        why=(
            "A jitted function traces and compiles on its first call for each new input shape and dtype; "
            "later calls reuse the executable. With no warm-up call before the timed region, a single "
            "sample is mostly compile time (JAX docs example: 193 ms compile for a 485 us run), and an "
            "average over a loop is inflated by it. `%timeit` without `-n` is safe: its calibration runs "
            "absorb the compile."
        ),
        bad="f = jax.jit(g)\n%time f(x).block_until_ready()",
        good=(
            "f = jax.jit(g)\nf(x).block_until_ready()          # warm-up: compiles\n"
            "%timeit f(x).block_until_ready()\n\n"
            "# or measure compile and run apart (ahead-of-time):\ncompiled = jax.jit(g).lower(x).compile()"
        ),
        pitfall=2,
        cost="tracing and compilation land in the timing (JAX docs example: 193 ms compile for a 485 us run)",
        fix_safety="safe",
    ),
    Rule(
        code="LB104",
        name="single-timing-sample",
        severity=Severity.WARNING,
        summary="A clock or timer block is read once before and once after one call: a single sample, warmed or not.",
        why=(
            "One sample carries all the noise of the machine (other processes, interrupts, frequency "
            "changes) with no spread to judge it by; unwarmed, it also carries the one-time costs "
            "(compilation, caches, memory allocation), with nothing to tell them apart. Repeat the "
            "measurement after a warm-up and report a robust statistic (median, min). A first call timed "
            "to measure compilation on purpose (the code says so, or times the call again warm right after) "
            "is left alone: warming it up would take out what it measures. So is IPython's `%time`, a one-run "
            "readout by design (one `Wall time`, with `%timeit` as its repeating companion); LB103 and LB102 "
            "still report what it times. Anything else timed once is one sample, warm or not."
        ),
        bad="start = time.time()\ny = np.dot(a, b)\nprint(time.time() - start)",
        good=(
            "import levelbench\nprint(levelbench.measure(np.dot, a, b))   # warm-up, repeats, median + IQR\n\n"
            "# or with the standard library:\nnp.dot(a, b)\n"
            "times = timeit.repeat(lambda: np.dot(a, b), number=10, repeat=7)\nprint(min(times) / 10)"
        ),
        pitfall=2,
        cost="one noisy number with no spread to judge it by (unwarmed, it also holds the one-time costs)",
        fix_safety="safe",
    ),
    Rule(
        code="LB105",
        name="wall-clock-timer",
        severity=Severity.INFO,
        summary="`time.time()` times an interval; it is a wall clock, not a timer.",
        why=(
            "`time.time()` follows the system clock: it can jump (NTP) and its resolution is coarse on some "
            "platforms. `time.perf_counter()` is monotonic and has the best resolution available."
        ),
        bad=(
            "f(x).block_until_ready()  # warm-up\ntimes = []\nfor _ in range(10):\n    t0 = time.time()\n"
            "    f(x).block_until_ready()\n    times.append(time.time() - t0)"
        ),
        good=(
            "f(x).block_until_ready()  # warm-up\ntimes = []\nfor _ in range(10):\n    t0 = time.perf_counter()\n"
            "    f(x).block_until_ready()\n    times.append(time.perf_counter() - t0)"
        ),
        cost="a clock that can jump and may be coarse; small differences become noise",
        fix_safety="safe",
    ),
    Rule(
        code="LB106",
        name="python-loop-under-jit",
        severity=Severity.WARNING,
        summary="A Python `for`/`while` loop over data or a range runs inside a jitted function.",
        why=(
            "Under `jax.jit` a Python loop is executed once, at trace time, and every iteration is copied "
            "into the program: a 1000-step loop becomes 1000 copies of its body. Compile time and memory "
            "grow with the loop length (here: 1.2 s at 25 GRU steps, 11.8 s at 200) and the compile is "
            "redone for every new length. `jax.lax.scan` (or `fori_loop` / `while_loop`) traces the body "
            "once; for Flax recurrent cells `flax.linen.RNN` / `nn.scan` does it for you."
        ),
        bad=(
            "@jax.jit\ndef forward(params, xs, h):\n    ys = []\n    for x in xs:\n"
            "        y, h = model.apply(params, x, h)\n        ys.append(y)\n    return jnp.stack(ys), h"
        ),
        good=(
            "@jax.jit\ndef forward(params, xs, h):\n    def step(h, x):\n        y, h = model.apply(params, x, h)\n"
            "        return h, y\n    h, ys = jax.lax.scan(step, h, xs)\n    return ys, h"
        ),
        pitfall=5,
        cost=(
            "compile time and memory grow with the loop length (GRU here: 1.2 s of compile at 25 steps, "
            "11.8 s at 200)"
        ),
    ),
    Rule(
        code="LB107",
        name="jit-returns-nothing",
        severity=Severity.ERROR,
        summary="A jitted function returns nothing, so XLA removes all its work as dead code.",
        why=(
            "XLA only computes what a jitted function returns. One that returns `None` compiles to an "
            "(almost) empty program: it takes microseconds whatever the input, and timing it measures "
            "nothing. Usually the `return` was commented out or forgotten."
        ),
        bad="@jax.jit\ndef forward(params, x):\n    y = model.apply(params, x)\n    # return y",
        good="@jax.jit\ndef forward(params, x):\n    y = model.apply(params, x)\n    return y",
        pitfall=12,
        cost="the timing measures an empty program: microseconds whatever the input",
        fix_safety="unsafe",
    ),
    Rule(
        code="LB108",
        name="float64-without-x64",
        severity=Severity.WARNING,
        summary="float64 is requested from JAX but `jax_enable_x64` is never set in the file.",
        why=(
            "Without x64 mode JAX silently gives float32 (with a UserWarning \"Explicitly requested dtype "
            "float64 ... will be truncated\"). A comparison against NumPy, which really computes in float64, "
            "then compares different precisions, and the result dtype is not what the code says."
        ),
        bad="x = jax.random.normal(key, (n, n), dtype=jnp.float64)",
        good=(
            "jax.config.update(\"jax_enable_x64\", True)   # first thing, before any array is created\n"
            "x = jax.random.normal(key, (n, n), dtype=jnp.float64)\n\n# or compare in float32 on both sides"
        ),
        pitfall=8,
        cost="JAX computes in float32 while the code (and NumPy) says float64: different precision compared",
        fix_safety="unsafe",
    ),
    Rule(
        code="LB109",
        name="shape-as-loc",
        severity=Severity.ERROR,
        summary="A shape tuple is passed as the first argument of a NumPy sampler, which is `loc`/`low`, not `size`.",
        why=(
            "`np.random.normal((n, n))` draws ONE sample per element of `(n, n)`, with means n and n: an "
            "array of shape (2,), not (n, n). Everything downstream (a matmul on it, say) then runs on a "
            "two-element vector, and the benchmark compares JAX on n*n numbers with NumPy on two."
        ),
        bad="x = np.random.normal((size, size))",
        good=(
            "x = np.random.normal(size=(size, size))\n# better: a seeded Generator\n"
            "rng = np.random.default_rng(0)\nx = rng.standard_normal((size, size))"
        ),
        cost="the NumPy side works on a handful of numbers instead of the intended array",
        fix_safety="safe",
    ),
    Rule(
        code="LB110",
        name="numpy-syrk-matmul",
        severity=Severity.WARNING,
        summary="NumPy multiplies an array by its own transpose, which BLAS does with SYRK: half the work.",
        why=(
            "NumPy detects `x @ x.T` (and `np.dot(x, x.T)`) and calls BLAS SYRK, which computes only one "
            "triangle of the symmetric result: about half the FLOPs of the general product JAX or PyTorch "
            "run (measured here: 1.6-1.8x faster than `x @ y.T`). Compared with a general matmul elsewhere, "
            "NumPy looks twice as fast for doing half the work. Reported where the product is timed (a timed "
            "region, a function it calls, or one handed to `levelbench.measure` / `compare`) in a file that "
            "also uses JAX or PyTorch: outside a benchmark, a Gram matrix is just a Gram matrix."
        ),
        bad="%timeit np.dot(a, a.T)   # next to %timeit jnp.dot(x, y)",
        good=(
            "c = rng.standard_normal(a.shape)   # a distinct operand: a general GEMM, like the JAX side\n"
            "%timeit np.dot(a, c.T)"
        ),
        pitfall=16,
        cost="NumPy does about half the FLOPs of the other side (1.6-1.8x faster measured here)",
    ),
    Rule(
        code="LB111",
        name="jit-recreated",
        severity=Severity.WARNING,
        summary="`jax.jit` is applied inside a loop, a timed statement, or to a fresh function on each call.",
        why=(
            "JAX caches compiled code per function object. `jax.jit(lambda x: ...)` or `jax.jit(partial(f, "
            "a))` builds a new function every time it runs, so every call traces and compiles again "
            "(100-1000x slower). Reported for a fresh function jitted in a loop, jitted inside a function "
            "that runs repeatedly (unless it returns or stores the result), and any `jax.jit(...)(...)` inside "
            "a repeated timed statement, where even re-wrapping the same function adds a cache lookup to "
            "every run."
        ),
        bad="for x in batches:\n    y = jax.jit(lambda v: v * 2)(x)",
        good="double = jax.jit(lambda v: v * 2)   # once, outside the loop\nfor x in batches:\n    y = double(x)",
        pitfall=3,
        cost="a trace and compile (100-1000x a call) on every iteration or call",
    ),
    Rule(
        code="LB112",
        name="torch-autograd-timed",
        severity=Severity.WARNING,
        summary="A PyTorch model is called in a timed region without `torch.no_grad()` / `torch.inference_mode()`.",
        why=(
            "With autograd on, every forward pass records the graph for a backward pass that never comes: "
            "extra memory and time, which a JAX forward pass does not pay. Time inference under "
            "`torch.inference_mode()` (and call `model.eval()` so dropout and batch norm behave)."
        ),
        bad="%timeit model(x)",
        good="model.eval()\nwith torch.inference_mode():\n    %timeit model(x)",
        pitfall=17,
        cost="autograd graph recording on every timed call, which the JAX side does not pay",
        fix_safety="safe",
    ),
    Rule(
        code="LB113",
        name="import-not-found",
        severity=Severity.ERROR,
        summary="A name imported from jax / numpy / torch does not exist in the installed version.",
        why=(
            "`from jax import jix` raises ImportError, so the script as written never ran; whatever numbers "
            "came with it came from another version of the code. The doctor checks the installed package "
            "(without importing it when it can), and says nothing when the package is not installed."
        ),
        bad="from jax import random, jix",
        good="from jax import random, jit",
        cost="the script fails with ImportError before measuring anything",
        fix_safety="safe",
    ),
    Rule(
        code="LB114",
        name="op-by-op-dispatch",
        severity=Severity.WARNING,
        summary="JAX operations run one by one in a Python loop, with no jit around them.",
        why=(
            "Outside `jax.jit` every JAX operation is dispatched on its own: a fixed cost of tens of "
            "microseconds each, no fusion. In a loop of small operations that overhead dominates and NumPy "
            "or PyTorch eager win. Jit the function that holds the loop and turn the loop into "
            "`jax.lax.scan` / `fori_loop`. The same holds for a JAX library's function called in the loop "
            "where the library leaves the jit to its user (`env.step` of a brax or gymnax environment): jit it "
            "once, before the loop."
        ),
        bad="h = h0\nfor x in xs:\n    h = jnp.tanh(x @ W + h @ U)",
        good=(
            "@jax.jit\ndef run(h0, xs):\n    def step(h, x):\n        h = jnp.tanh(x @ W + h @ U)\n"
            "        return h, h\n"
            "    return jax.lax.scan(step, h0, xs)"
        ),
        pitfall=6,
        cost="a fixed dispatch cost (tens of microseconds) per operation per iteration, and no fusion",
    ),
    Rule(
        code="LB115",
        name="host-transfer-timed",
        severity=Severity.INFO,
        summary=(
            "A timed region copies data between host and device (`np.asarray`, `.item()`, `float()`, NumPy inputs)."
        ),
        why=(
            "Converting a device array to NumPy or a Python number copies it to the host, and passing a "
            "NumPy array to a jitted function copies it to the device, on every call. On an accelerator the "
            "copy can cost more than the computation; the timing then measures the transfer. Put inputs on "
            "the device before timing and wait with `block_until_ready()` instead of converting."
        ),
        bad="%timeit np.asarray(f(x_np))",
        good="x = jax.device_put(x_np)\n%timeit f(x).block_until_ready()\ny = np.asarray(f(x))   # outside the timing",
        pitfall=10,
        cost="a host<->device copy per run inside the timing",
    ),
    Rule(
        code="LB116",
        name="cuda-not-synchronized",
        severity=Severity.WARNING,
        summary="PyTorch work that may run on CUDA is timed without `torch.cuda.synchronize()`.",
        why=(
            "CUDA kernels run asynchronously: the Python call returns when the kernel is queued. Without "
            "`torch.cuda.synchronize()` before reading the clock, the timing misses the GPU work. "
            "`torch.utils.benchmark.Timer` synchronizes for you. A tensor the timed code hands on to JAX "
            "(DLPack) is waited for by the JAX work that consumes it: there the missing wait is JAX's (LB102)."
        ),
        bad=(
            "x_gpu = x.cuda()\nwith torch.inference_mode():\n    t0 = time.perf_counter()\n    for _ in range(100):\n"
            "        y = model(x_gpu)\n    elapsed = (time.perf_counter() - t0) / 100"
        ),
        good=(
            "x_gpu = x.cuda()\nwith torch.inference_mode():\n    t0 = time.perf_counter()\n    for _ in range(100):\n"
            "        y = model(x_gpu)\n    torch.cuda.synchronize()  # wait for the GPU before reading the clock\n"
            "    elapsed = (time.perf_counter() - t0) / 100"
        ),
        cost="the GPU work is missing from the measurement",
    ),
    Rule(
        code="LB117",
        name="retrace-per-call",
        severity=Severity.WARNING,
        summary="A jitted function is called in a loop with arguments that change its shape or static values.",
        why=(
            "`jax.jit` compiles once per input shape, dtype, pytree structure and static argument value. An "
            "argument sliced by the loop variable (`x[:i]`), an array the loop sizes (`np.zeros(n)`, "
            "`x[labels == k]`), one element after another of a list of arrays of different lengths "
            "(`[x[:n] for n in sizes]`, `np.split(x, [3, 7])`), a list that grows every iteration, or a "
            "`static_argnums` argument that takes a new Python value each time makes every iteration trace "
            "and compile again. Keep the shapes fixed (pad to one length, or a few bucket lengths, and pass a "
            "mask; `lax.dynamic_slice` with a fixed size) and pass changing numbers as traced arguments."
        ),
        bad="for i in range(1, n):\n    y = f(xs[:i])",
        good=(
            "for i in range(1, n):\n    y = f(jnp.where(jnp.arange(n)[:, None] < i, xs, 0.0))  "
            "# one shape: compiled once"
        ),
        cost="a trace and compile (100-1000x a call) for every new shape or static value, every iteration",
    ),
    Rule(
        code="LB118",
        name="suppression-names-no-rule",
        severity=Severity.INFO,
        summary="A `# noqa` or `# levelbench: ignore[...]` comment names an LB code that is no rule of the doctor.",
        why=(
            "A suppression comment silences only the codes it names. A mistyped or retired code (`LB999`, "
            "`LB15` for `LB105`) silences nothing: the finding it was written for is still reported, or the "
            "comment outlived the code it was for. Only LB codes are judged; other tools' codes are theirs."
        ),
        bad="t0 = time.time()  # noqa: LB999",
        good="t0 = time.time()  # noqa: LB105",
        cost="none to the numbers: a comment that does not do what its writer meant",
    ),
)
