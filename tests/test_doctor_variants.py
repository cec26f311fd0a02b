"""The doctor finds the same mistakes however the code is written: variants of the real corpus.

tests/doctor_cases/variants.py rewrites every case of tests/doctor_cases/real/ (and every file of
tests/doctor_cases/good/) the ways people write code: the timed callable aliased, wrapped, defined in a
factory or a class, imports under other names, the timing in a helper, a loop, another clock, a magic,
``timeit.timeit(lambda: ...)`` or pytest-benchmark, the script as a notebook. benchmarks/doctor_accuracy.py
(``--only variants``) scores them; this test keeps the figures from falling.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Measured 2026-12-02 on 243 variants of the 33 positive cases (484 labelled findings) and 126 of the
# correct code, 20 kinds: before the shared model (main at 43b52af) 400 of 484 (0.826), precision 0.992,
# 1 finding on correct variants; after it, 470 of 484 (0.971), precision 1.000, 0 findings on correct
# variants. The 21st kind, google-benchmark (issue 25's model-general branch), adds 11 variants and 18
# labelled findings, 17 found (the miss is 013's, as in every kind): 487 of 502 (0.970), the 20 earlier
# kinds still 470 of 484. The 22nd kind, with-benchmark (a clock pair become d2l's `with Benchmark():` block,
# branch batch3-now), adds 15 labelled findings, all found: 502 of 517 (0.971), the 21 earlier kinds still 487
# of 502. Branch var6 (2026-12-03): a static method runs as its visible calls say (LB114), 504 of 517 (0.975):
# the misses left are 013's (a name imported as two modules) and one of each of a few kinds. Branch mend19
# (2026-12-06): a function reading a name imported as several modules runs the import in effect where module-level
# code calls it, 515 of 517 (0.996): 013's factory and google-benchmark variants are the two left.
# Raise these when the doctor improves; never lower them to make a change pass.
BASELINE_VARIANT_FOUND = 515
BASELINE_VARIANT_LABELLED = 517
BASELINE_VARIANT_PRECISION = 1.0
MAX_FINDINGS_ON_CORRECT_VARIANTS = 0


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


accuracy = _load("doctor_accuracy", ROOT / "benchmarks" / "doctor_accuracy.py")
variants = _load("doctor_variants", ROOT / "tests" / "doctor_cases" / "variants.py")


@pytest.fixture(scope="module")
def score():
    # The cases the baseline was measured on (001-047, those without a first-sight line): the first-sight
    # cases are scored beside them by the benchmark, not held to it (their originals are missed as posted).
    return accuracy.run_variants([c for c in accuracy.load_corpus() if c.first_sight is None])


def test_variants_keep_their_findings(score):
    found, labelled = sum(score.found.values()), sum(score.labelled.values())
    assert labelled >= BASELINE_VARIANT_LABELLED, f"expected at least {BASELINE_VARIANT_LABELLED} labelled variant findings, got {labelled}"
    misses = "\n".join(f"  {m['case']} {m['kind']} {m['code']} {m['lines']}" for m in score.misses)
    assert found / labelled >= BASELINE_VARIANT_FOUND / BASELINE_VARIANT_LABELLED, (
        f"variant recall fell: {found}/{labelled}, baseline {BASELINE_VARIANT_FOUND}/{BASELINE_VARIANT_LABELLED}; "
        f"misses:\n{misses}"
    )


def test_variants_of_correct_code_stay_quiet_and_findings_are_right(score):
    false = "\n".join(f"  {f['case']} {f['kind']} {f['code']}:{f['line']} {f['message']}" for f in score.false)
    assert sum(score.noisy.values()) <= MAX_FINDINGS_ON_CORRECT_VARIANTS, f"findings on correct variants:\n{false}"
    assert score.precision >= BASELINE_VARIANT_PRECISION, f"variant precision {score.precision:.3f}; false findings:\n{false}"


def test_every_variant_kind_is_made_and_parses():
    made = set()
    for case in accuracy.load_corpus():
        if "LB100" in case.static:
            continue
        for variant in variants.case_variants(case.path.read_text(), case.static, case.lines):
            made.add(variant.kind)
            if "%" not in variant.text and "!" not in variant.text:
                ast.parse(variant.text)  # a rewrite that breaks the code measures nothing
            for code, lines in variant.expected.items():
                assert lines is None or all(1 <= n <= variant.text.count("\n") + 1 for n in lines), (case.name, variant.kind, code)
    assert made == set(variants.KINDS), f"kinds never made: {sorted(set(variants.KINDS) - made)}"


def test_a_variant_moves_the_expected_lines_and_drops_what_it_removes():
    text = "import time\nimport jax\nf = jax.jit(lambda x: x)\nx = 1.0\nstart = time.time()\nf(x)\nprint(time.time() - start)\n"
    made = {v.kind: v for v in variants.case_variants(text, {"LB102", "LB105"}, {"LB102": {6}, "LB105": {5}})}
    assert made["alias"].expected == {"LB102": frozenset({7}), "LB105": frozenset({6})}  # `f_alias = f` before the clock
    assert "f_alias(x)" in made["alias"].text
    assert made["clock-perf_counter"].expected == {"LB102": frozenset({6})}  # no wall clock left: no LB105
    assert made["clock-perf_counter"].dropped == ("LB105",)
    assert made["magic-timeit"].expected == {"LB102": frozenset({6})}
    assert "%timeit f(x)" in made["magic-timeit"].text
    assert made["helper"].expected == {"LB102": frozenset({7}), "LB105": frozenset({6})}


def test_a_rewrite_keeps_the_words_that_say_what_a_timing_means():
    # The words a script prints or binds say a timing measures compilation on purpose (`print(f"jit time: ...")`):
    # an import renamed is not renamed inside a string, and a clock pair made another harness keeps its words.
    text = ("import time\nimport jax\nf = jax.jit(lambda x: x)\nx = 1.0\ns = time.time()\nf(x)\n"
            "print(f\"jit time: {time.time() - s}\")\n")
    made = {v.kind: v for v in variants.case_variants(text, {"LB105"}, {"LB105": {5}})}
    renamed = made["import-alias"].text
    assert 'print(f"jit time: {time_' in renamed and "jit_" not in renamed.split("print")[1].split("{")[0], renamed
    assert "jit time" in next(line for line in made["magic-time"].text.splitlines() if line.startswith("%time"))
    assert "jit time" in next(line for line in made["with-benchmark"].text.splitlines() if "f(x)" in line)
    line = 'print(f"{f.__name__} jit time: {jit(x)}", \'jit\')'
    assert [line[a:b] for a, b in variants._literal_spans(line) if a < b] == [" jit time: ", "jit"]


def test_a_clock_pair_whose_start_a_later_timing_reads_is_left_where_it_is():
    # case 133: the second cell subtracts the first cell's `start_time`; moving or removing that reading would
    # change the later timing, so no rewrite moves it (a start bound again before the next read is free to move)
    shared = ("import time\nimport jax\nf = jax.jit(lambda x: x)\nx = 1.0\ns = time.time()\nf(x)\nprint(time.time() - s)\n"
              "f(x)\nprint(time.time() - s)\n")
    made = {v.kind for v in variants.case_variants(shared, {"LB102"}, {"LB102": {6}})}
    assert not made & {"loop", "magic-time", "with-benchmark"}, made  # a helper declares `s` global instead
    rebound = shared.replace("f(x)\nprint(time.time() - s)\nf(x)", "f(x)\nprint(time.time() - s)\ns = time.time()\nf(x)")
    made = {v.kind for v in variants.case_variants(rebound, {"LB102"}, {"LB102": {6}})}
    assert {"helper", "magic-time"} <= made, made


def test_a_clock_pair_made_a_time_magic_drops_its_single_sample_finding():
    # %time is the one run it announces (LB104's catalogue entry): the variant must not get LB104 there
    text = "import time\nimport jax\nf = jax.jit(lambda x: x)\nx = 1.0\nstart = time.perf_counter()\nf(x)\nprint(time.perf_counter() - start)\n"
    made = {v.kind: v for v in variants.case_variants(text, {"LB102", "LB104"}, {"LB102": {6}, "LB104": {6}})}
    assert "LB104" not in made["magic-time"].expected and "LB104" not in made["magic-time"].allowed
    assert "LB104" in made["magic-time"].dropped
    assert "LB104" in made["clock-monotonic"].expected


def test_a_new_binding_goes_above_the_comment_that_heads_the_timing():
    # case 134: `# --- First execution (t_1) ---` says what the timing under it measures; an alias put between
    # them would leave the comment heading the alias
    text = ("import time\nimport jax\nf = jax.jit(lambda x: x)\nx = 1.0\n\n# --- First execution ---\n"
            "start = time.perf_counter()\nf(x)\nprint(time.perf_counter() - start)\n")
    lines = variants.case_variants(text, {"LB102"}, {"LB102": {8}}).__next__().text.splitlines()
    assert lines[5:8] == ["f_alias = f", "# --- First execution ---", "start = time.perf_counter()"], lines


def test_import_alias_leaves_magics_shell_lines_and_docstrings_alone():
    # case 087: `from time import time` renamed must not turn `%time` into `%time_1`, nor `!pip install jax` into
    # `!pip install jax_2`, nor the words of a docstring
    text = ('import jax\nfrom time import time\nf = jax.jit(lambda x: x)\n!pip install jax\ndef g():\n    """Run\n'
            '    in time\n    """\n    return time()\n%time f(1.0)\n')
    renamed = next(v for v in variants.case_variants(text, {"LB102"}, {"LB102": {10}}) if v.kind == "import-alias").text
    assert "%time f(1.0)" in renamed and "!pip install jax\n" in renamed and "    in time\n" in renamed, renamed
    assert "return time_" in renamed


def test_a_finding_a_harness_removes_goes_from_the_calls_of_the_helper_it_was_in():
    # case 107: LB103 labelled at the helper's clock pair or at the call that runs it; %timeit warms up, so the
    # finding goes from both places (another timing's line would stay expected)
    text = ("import time\nimport jax\nf = jax.jit(lambda x: x)\ndef run(g):\n    start = time.perf_counter()\n    g(1.0)\n"
            "    print(time.perf_counter() - start)\nrun(f)\n")
    made = {v.kind: v for v in variants.case_variants(text, {"LB102", "LB103"}, {"LB102": {6}, "LB103": {6, 8}})}
    assert "LB103" not in made["magic-timeit"].expected and "LB103" in made["magic-timeit"].dropped
    assert made["magic-time"].expected["LB103"] == frozenset({6, 8})  # %time does not warm up: still expected


def test_a_finding_both_labelled_and_allowed_at_its_line_counts_as_found():
    # case 196's loop variant: LB114 is labelled at the timed call and allowed on the loop the rewrite adds,
    # the call's line included; the finding there is the labelled one, not a spare
    variant = variants.Variant("loop", "", {"LB114": frozenset({27})}, allowed={"LB114": frozenset({24, 27})})
    score = accuracy.VariantScore()
    accuracy.score_variant(score, "case", variant, [("LB114", 27, "m"), ("LB114", 24, "m")], positive=True)
    assert score.found[("loop", "LB114")] == 1 and not score.misses and not score.false and score.reported == 1


def test_a_timing_moved_into_a_helper_keeps_what_later_code_reads_a_module_name():
    # case 136: `img = ....cuda()` is timed, then `model(img)`; inside the helper `img` is declared global
    text = ("import time\nimport jax\nf = jax.jit(lambda x: x)\nstart = time.perf_counter()\ny = f(1.0)\n"
            "print(time.perf_counter() - start)\nprint(y)\n")
    helper = next(v for v in variants.case_variants(text, {"LB102"}, {"LB102": {5}}) if v.kind == "helper").text
    assert "def run_benchmark():\n    global y\n" in helper, helper
    unread = text.replace("print(y)\n", "print(1)\n")
    helper = next(v for v in variants.case_variants(unread, {"LB102"}, {"LB102": {5}}) if v.kind == "helper").text
    assert "global" not in helper


def test_a_timing_of_a_callee_timed_again_later_is_not_made_a_test_that_runs_after_it():
    # cases 087 and 134: a cold timing then a warm one of the same function; as a pytest-benchmark test or a
    # google_benchmark function the first would run after the module's second timing, which becomes the cold one.
    # The last timing of it may become one: nothing at module level comes after it.
    pair = ("import time\nimport jax\nf = jax.jit(lambda x: x)\nx = 1.0\nstart = time.perf_counter()\nf(x)\n"
            "print(time.perf_counter() - start)\nstart = time.perf_counter()\nf(x)\nprint(time.perf_counter() - start)\n")
    made = {v.kind: v.text.splitlines() for v in variants.case_variants(pair, {"LB102"}, {"LB102": {6, 9}})}
    for kind in ("benchmark-fixture", "google-benchmark"):
        assert made[kind][5] == "f(x)" and any("_speed(" in line for line in made[kind][7:]), made[kind]


def test_a_loop_version_timed_before_its_jitted_redefinition_is_not_jitted_or_vmapped():
    # case 140: `step` timed as a plain loop, then defined again under `@jax.jit` and timed again; jitting or
    # vmapping the loop version would change what a correct doctor says (a Python loop under jit is LB106)
    head = ("import time\nimport jax\nimport jax.numpy as jnp\n@jax.jit\ndef update(x):\n    return x + 1\n"
            "def step(x):\n    for _ in range(3):\n        x = update(x)\n    return x\nx = jnp.ones(3)\n"
            "start = time.perf_counter()\nstep(x).block_until_ready()\nprint(time.perf_counter() - start)\n")
    tail = "@jax.jit\ndef step(x):\n    return x + 3\nstep(x).block_until_ready()\n"
    made = {v.kind for v in variants.case_variants(head + tail, {"LB103"}, {"LB103": {13}})}
    assert "alias" in made and not made & {"vmap", "cond-jit"}, made
    jitted_first = head.replace("def step(x):\n    for", "@jax.jit\ndef step(x):\n    for")
    made = {v.kind for v in variants.case_variants(jitted_first + tail, {"LB103"}, {"LB103": {14}})}
    assert {"vmap", "cond-jit"} <= made, made


def test_a_vmap_or_jit_of_a_local_callable_goes_before_its_warm_up_and_never_wraps_an_executable():
    # case 145: the jit/vmap of a function-local target was bound after the warm-up, so the timing ran a new
    # program cold (a true LB103 on correct code); and an AOT executable is no function to vmap or jit again
    body = ("import time\nimport jax\ndef run(fn, x):\n    step = jax.jit(fn)\n    step(x).block_until_ready()\n"
            "    t0 = time.perf_counter()\n    step(x).block_until_ready()\n    return time.perf_counter() - t0\n")
    made = {v.kind: v.text.splitlines() for v in variants.case_variants(body)}
    for kind, new in (("cond-jit", "step_maybe_jit"), ("vmap", "step_batched")):
        lines = made[kind]
        bound = next(i for i, line in enumerate(lines) if f"{new} =" in line)
        warm = next(i for i, line in enumerate(lines) if line.strip() == f"{new}(x).block_until_ready()")
        assert bound < warm and lines[bound].startswith("    "), lines
    executable = body.replace("step = jax.jit(fn)", "step = jax.jit(fn).lower(x).compile()")
    assert not {v.kind for v in variants.case_variants(executable)} & {"vmap", "cond-jit"}


def test_a_vmap_or_jit_of_a_callable_bound_in_a_with_block_goes_before_its_warm_up_in_that_block():
    # case 261: `grad_fn = jax.jit(...)` bound inside `with te.autocast(...)`, warmed up and timed in that block; the
    # new binding went into the timed loop, after the warm-up, so the timing ran a new program cold (LB103 on correct
    # code) and a vmap was made anew on every pass
    body = ("import time\nimport jax\ndef run(fn, x, ctx):\n    with ctx:\n        step = jax.jit(fn)\n"
            "        for _ in range(3):\n            step(x).block_until_ready()\n        for _ in range(5):\n"
            "            t0 = time.perf_counter()\n            step(x).block_until_ready()\n"
            "            print(time.perf_counter() - t0)\n")
    made = {v.kind: v.text.splitlines() for v in variants.case_variants(body)}
    for kind, new in (("cond-jit", "step_maybe_jit"), ("vmap", "step_batched")):
        lines = made[kind]
        bound = next(i for i, line in enumerate(lines) if f"{new} =" in line)
        warm = next(i for i, line in enumerate(lines) if line.strip() == f"{new}(x).block_until_ready()")
        assert bound < warm and lines[bound].startswith("        ") and not lines[bound].startswith("         "), lines
        assert sum(line.strip() == f"{new}(x).block_until_ready()" for line in lines) == 2, lines


def test_a_registered_benchmark_keeps_the_comment_that_heads_the_timing_over_it():
    # case 087: `# Now time it without compilation` over the steady `%time`: made a google_benchmark function, the
    # import goes above the comment, which stays over the registered function
    text = ("import jax\nf = jax.jit(lambda x: x)\nx = 1.0\n%time f(x)\n# %%\n# Now time it without compilation\n"
            "%time f(x)\n")
    made = [v for v in variants.case_variants(text, {"LB102"}, {"LB102": {4, 7}}) if v.kind == "google-benchmark"]
    assert made, "no google-benchmark variant was made"
    lines = made[0].text.splitlines()
    at = lines.index("# Now time it without compilation")
    assert lines[at - 1] == "import google_benchmark" and lines[at + 1] == "@google_benchmark.register", lines


def test_a_name_bound_twice_is_renamed_only_where_the_renamed_binding_reaches():
    # case 217: a PyTorch `matmul_chain` timed in one cell, a jitted `matmul_chain` of the same name timed in the
    # next. An alias made before the second def, called at both timings, made the JAX cell time the PyTorch
    # function; a class holding the jitted def, called at both, made the PyTorch cell time the jitted one
    text = ("import time\nimport torch\ndef chain(x):\n    return x @ x\nx = torch.ones(4)\nstart = time.perf_counter()\n"
            "chain(x)\nprint(time.perf_counter() - start)\n# %%\nimport jax\n@jax.jit\ndef chain(x):\n    return x @ x\n"
            "start = time.perf_counter()\nchain(x).block_until_ready()\nprint(time.perf_counter() - start)\n")
    made = {v.kind: v.text.splitlines() for v in variants.case_variants(text, {"LB104"}, {"LB104": {7, 15}})}
    for kind, new in (("alias", "chain_alias("), ("container", 'chain_fns["chain"]('), ("partial", "chain_partial(")):
        lines = made[kind]
        timed = [line for line in lines if line.startswith(("chain", new)) and "=" not in line]
        assert timed == [f"{new}x)", "chain(x).block_until_ready()"], (kind, lines)
    lines = made["method"]
    timed = [line for line in lines if "(x)" in line and not line.startswith(("def", " "))]
    assert timed == ["chain(x)", "ChainHolder.chain(x).block_until_ready()"], lines


def test_an_interval_kept_under_a_name_read_later_keeps_what_it_is_reported_as():
    # case 200: `first_t = time.perf_counter() - beg`, later reported as `jit_time`. Made a `%time` or a `with
    # Benchmark()` block, `first_t` was left unbound and the words saying what the timing measures were lost:
    # those harnesses carry the reporting line's words beside the timed statement; timeit.timeit returns its
    # figure and keeps the name bound
    text = ("import time\nimport jax\nf = jax.jit(lambda x: x)\ndef run(x, counters):\n    beg = time.perf_counter()\n"
            "    f(x).block_until_ready()\n    first_t = time.perf_counter() - beg\n    counters['jit_time'] = first_t\n"
            "run(1.0, {})\n")
    made = {v.kind: v.text.splitlines() for v in variants.case_variants(text, {"LB104"}, {"LB104": {5}})}
    for kind in ("magic-time", "with-benchmark"):
        timed = next(line for line in made[kind] if "f(x).block_until_ready()" in line)
        assert timed.endswith("# (the clock lines said: beg first_t; reported as: jit_time)"), (kind, timed)
    assert "    import timeit; first_t = timeit.timeit(lambda: f(x).block_until_ready(), number=1)" in [
        line.split("  #")[0] for line in made["timeit-lambda"]], made["timeit-lambda"]


def test_a_new_binding_of_a_name_first_bound_in_the_calling_block_goes_inside_that_block():
    # case 223: `net = ...` under `if __name__ == "__main__":`, called in a timed loop there; `net_alias = net` above
    # the `if` read a name not yet bound (a NameError, no longer the case's program)
    text = ("import time\nimport torch\nif __name__ == '__main__':\n    net = torch.nn.Linear(3, 3).cuda()\n"
            "    for i in range(5):\n        x = torch.ones(3).cuda()\n        tic = time.time()\n        y = net(x)\n"
            "        print(time.time() - tic)\n")
    made = {v.kind: v.text.splitlines() for v in variants.case_variants(text, {"LB116"}, {"LB116": {8}})}
    for kind, binding in (("alias", "net_alias = net"), ("container", 'net_fns = {"net": net}')):
        lines = made[kind]
        at = lines.index(f"        {binding}")
        assert lines[at + 1] == "        tic = time.time()" and at > lines.index("    net = torch.nn.Linear(3, 3).cuda()")


def test_a_helper_that_returns_its_reading_is_made_no_harness_that_reports_by_itself():
    # case 293: `_timed(run)` returns `time.perf_counter() - start` and its caller keeps the fastest of warm
    # repeats; made a `with Benchmark()` block (or `%time`, a test function) the helper returns None and each call
    # is one sample reported apart: another program, with LB104 where the original has none. timeit.timeit returns
    # its figure, so that rewrite stays
    text = ("import time\nimport jax\nf = jax.jit(lambda x: x)\ndef timed(run):\n    start = time.perf_counter()\n"
            "    jax.block_until_ready(run())\n    return time.perf_counter() - start\n"
            "timed(lambda: f(1.0))\nprint(min(timed(lambda: f(1.0)) for _ in range(5)))\n")
    made = {v.kind for v in variants.case_variants(text, set(), {})}
    assert not made & {"with-benchmark", "magic-time", "magic-timeit", "benchmark-fixture", "google-benchmark"}, made
    assert "timeit-lambda" in made, made
