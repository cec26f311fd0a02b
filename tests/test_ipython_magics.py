"""The IPython magics in an in-process shell: options, statements, what they print and return.

The same magics in a real Jupyter kernel (HTML output, ``%load_ext levelbench``) are in
test_ipython_kernel.py.
"""

import re
import sys

import numpy as np
import pytest

pytest.importorskip("IPython")

from IPython.core.error import UsageError  # noqa: E402

import levelbench  # noqa: E402
from levelbench.ipython import _options as o  # noqa: E402
from levelbench.ipython._candidates import split_candidates  # noqa: E402
from levelbench.ipython._display import RichDisplay, measurement_summary  # noqa: E402
from levelbench._values.units import fmt_time  # noqa: E402
from levelbench.ipython._statement import StatementError, namespace, prepare_call  # noqa: E402

TIMEIT = (o.NUMBER, o.REPEAT, o.QUIET, o.OUTPUT, o.BUDGET, o.CI)


@pytest.fixture(scope="module")
def ip():
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython()
    shell.run_line_magic("load_ext", "levelbench.ipython")
    return shell


@pytest.fixture(scope="module")
def shared_cache(_peak_cache):
    return _peak_cache  # the session's, holding a stand-in practical peak (conftest)


@pytest.fixture
def user(ip, shared_cache, monkeypatch):
    """A clean user namespace with a small NumPy workload."""
    # compare would measure the machine's peak FLOP/s where the cache has none: the session's has one
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(shared_cache))
    saved = dict(ip.user_ns)
    ip.run_cell("import numpy as np\nx = np.ones((60, 60))\ndef f(x):\n    return x @ x\n")
    yield ip
    ip.user_ns.clear()
    ip.user_ns.update(saved)


def flat(text):
    """Output with rich's line wrapping undone (the terminal width decides where it wraps)."""
    return " ".join(text.split())


def run(ip, line):
    """Run a cell; re-raise what it raised (IPython would only print it)."""
    result = ip.run_cell(line)
    if result.error_before_exec or result.error_in_exec:
        raise result.error_before_exec or result.error_in_exec
    return result.result


# -- options ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "line, expected, rest",
    [
        ("-n10 -o --budget=1 f(1)", {"number": 10, "output": True, "budget": 1.0}, "f(1)"),
        ("-n 3 -r 7 f(x)", {"number": 3, "repeat": 7}, "f(x)"),
        ("-qo --ci 0.05 a @ b", {"quiet": True, "output": True, "rel_ci": 0.05}, "a @ b"),
        ("  f(x, -1)", {}, "f(x, -1)"),
        ("-- -x", {}, "-x"),
        ("--budget 0 lambda: f(x)", {"budget": 0.0}, "lambda: f(x)"),
    ],
)
def test_options_are_read_off_the_front_and_the_statement_is_kept_verbatim(line, expected, rest):
    assert o.split_options(line, TIMEIT, "%lbtimeit") == (expected, rest)


@pytest.mark.parametrize(
    "line, message",
    [
        ("-z f(x)", "unknown option -z"),
        ("--repeat 3 f(x)", "unknown option --repeat"),
        ("-n 0 f(x)", "-n (calls per sample) must be an integer >= 1, got '0'"),
        ("-n", "option -n needs a value"),
        ("--ci 2 f(x)", "--ci must be a fraction in (0, 1)"),
        ("--budget=-1 f(x)", "--budget must be seconds >= 0"),
        ("-q=1 f(x)", "unknown option -="),
    ],
)
def test_bad_options_name_the_problem_and_list_the_accepted_ones(line, message):
    with pytest.raises(o.OptionError) as e:
        o.split_options(line, TIMEIT, "%lbtimeit")
    assert message in str(e.value)
    assert "accepted options: -n NUMBER -r REPEAT -q -o --budget BUDGET --ci REL_CI" in str(e.value)


# -- %lbcompare candidates --------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, pairs",
    [
        ("jax=f(x) torch=g(xt)", [("jax", "f(x)"), ("torch", "g(xt)")]),
        ("jax = f(x, y=1)  torch = g(xt, dim=-1)", [("jax", "f(x, y=1)"), ("torch", "g(xt, dim=-1)")]),
        ("a=f(x), b=x @ x.T", [("a", "f(x)"), ("b", "x @ x.T")]),
        ("a=lambda x=1: x b=h(x == 2)", [("a", "lambda x=1: x"), ("b", "h(x == 2)")]),
        ("\njax = f(x)\ntorch = g(\n  xt)\n", [("jax", "f(x)"), ("torch", "g(\n  xt)")]),
    ],
)
def test_candidates_split_at_top_level_names(text, pairs):
    assert split_candidates(text) == pairs


@pytest.mark.parametrize(
    "text, message",
    [
        ("f(x) g(x)", "expected name=expression pairs"),
        ("f(x) jax=g(x)", "'f(x)' comes before the first name"),
        ("a=f(x) a=g(x)", "must differ, got a more than once"),
        ("a= b=g(x)", "candidate 'a' has no expression"),
        ("a=f(x", "cannot read the candidates"),
    ],
)
def test_malformed_candidates_are_refused_with_an_example(text, message):
    with pytest.raises(StatementError, match=message.replace("(", r"\(").replace(")", r"\)")):
        split_candidates(text)


# -- statements -------------------------------------------------------------------------------
def test_a_plain_call_is_split_into_function_and_arguments_evaluated_once():
    calls = []
    ns = {"f": lambda a, b=0: a + b, "make": lambda: calls.append(1) or 2}
    call = prepare_call("f(make(), b=3)", ns)
    assert call.fn is ns["f"] and call.args == (2,) and call.kwargs == {"b": 3}
    assert calls == [1]  # the argument was built once, not on every timed call
    assert call.label == "f(make(), b=3)"


def test_a_lambda_is_evaluated_on_every_call_so_the_result_is_a_function():
    call = prepare_call("lambda: f(x)", {"f": abs, "x": -1})
    result = call.fn(*call.args, **call.kwargs)
    assert callable(result) and result() == 1


def test_statements_run_as_a_function_returning_the_last_expression():
    ns = {"x": 3}
    call = prepare_call("y = x * 2\ny + 1", ns)
    assert call.fn() == 7
    assert "y" not in ns  # the statement's variables are its own, as in %timeit
    assert call.label == "y = x * 2 ..."


def test_setup_runs_once_in_a_copy_of_the_user_namespace():
    user_ns = {"base": 10}
    ns = namespace(user_ns, None, "extra = base + 1")
    assert prepare_call("extra * 2", ns).fn() == 22
    assert "extra" not in user_ns


@pytest.mark.parametrize("source, message", [("", "is empty"), ("x = = 1", "is not valid Python")])
def test_bad_statements_say_what_is_wrong(source, message):
    with pytest.raises(StatementError, match=message):
        prepare_call(source, {})


# -- the magics -------------------------------------------------------------------------------
def test_timing_a_lambda_warns_that_nothing_was_computed(user, capsys):
    run(user, "%lbtimeit --budget 0.1 lambda: f(x)")
    out = flat(capsys.readouterr().out)
    assert "error LB001 the call returned a function: nothing was computed" in out and "(-v for the evidence" in out
    run(user, "%lbtimeit -v --budget 0.1 lambda: f(x)")
    out = flat(capsys.readouterr().out)
    assert "lambda: f(x)" in out and "steady median" in out and "error LB001" in out


def test_the_default_is_one_timeit_style_line(user, capsys):
    assert run(user, "%lbtimeit --budget 0.1 f(x)") is None
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"[\d.]+ [mun]?s \u00b1 [\d.]+ [mun]?s per loop \(median \u00b1 95% CI half-width of \d+ "
                        r"samples of [\d,]+ loops\)", lines[0]), lines
    assert all(line.startswith("  ") for line in lines[1:]), lines  # only the failed self-checks follow


def test_o_offers_timeit_result_attributes_with_their_meanings(user):
    from IPython.core.magics.execution import TimeitResult

    m = run(user, "%lbtimeit -o -q -n 4 -r 6 --budget 0 f(x)")
    t = TimeitResult(m.loops, m.repeat, m.best, m.worst, m.all_runs, m.compile_time, 3)
    assert (m.loops, m.repeat) == (4, 6)
    assert m.timings == pytest.approx(t.timings) and m.all_runs == pytest.approx([x * 4 for x in m.samples])
    assert m.average == pytest.approx(t.average) and m.stdev == pytest.approx(t.stdev)
    assert m.best == min(m.samples) and m.worst == max(m.samples) and m.compile_time == 0.0


def test_o_returns_the_measurement_and_n_r_q_are_honoured(user, capsys):
    run(user, "m = %lbtimeit -o -q -n 3 -r 7 --budget 0 f(x)")
    m = user.user_ns["m"]
    assert isinstance(m, levelbench.Measurement)
    assert m.calls_per_sample == 3 and m.n_samples >= 7
    assert m.label == "f(x)" and m.framework == "numpy"
    assert capsys.readouterr().out == ""


def test_without_o_nothing_is_returned(user, capsys):
    assert run(user, "%lbtimeit --budget 0 -r 2 f(x)") is None
    assert "per loop (median" in capsys.readouterr().out
    assert run(user, "%lbtimeit -v --budget 0 -r 2 f(x)") is None
    assert "f(x)  (numpy)" in capsys.readouterr().out


def test_cell_mode_runs_the_setup_once_and_times_the_cell(user):
    run(user, "%%lbtimeit -o -q --budget 0 -r 3 y = f(x)\nz = y + 1\nz.sum()")
    m = user.last_execution_result.result
    assert isinstance(m, levelbench.Measurement) and m.framework == "numpy"
    assert "y" not in user.user_ns and "z" not in user.user_ns


def test_a_keyword_that_measure_also_takes_still_reaches_the_function(user):
    run(user, "seen = set()\ndef g(x, number=1):\n    seen.add(number)\n    return x * number")
    run(user, "m = %lbtimeit -o -q --budget 0 -r 2 g(x, number=3)")
    assert user.user_ns["seen"] == {3}
    assert user.user_ns["m"].label == "g(x, number=3)"


def test_braces_are_python_not_ipython_variable_expansion(user):
    run(user, "n = 3")
    assert user.var_expand("len({n})") == "len(3)"  # what IPython would make of it, and len(3) fails
    m = run(user, "%lbtimeit -o -q --budget 0 -r 2 len({n})")
    assert m.label == "len({n})"


def test_inside_a_function_the_statement_sees_its_locals(user):
    run(user, "def g():\n    local_y = 5\n    m = %lbtimeit -o -q --budget 0 -r 2 local_y + 1\n    return m\n")
    assert run(user, "g()").label == "local_y + 1"


def test_usage_errors_are_reported_without_a_traceback(user):
    with pytest.raises(UsageError, match="unknown option -z"):
        user.run_line_magic("lbtimeit", "-z f(x)")
    with pytest.raises(UsageError, match="the statement is empty"):
        user.run_line_magic("lbtimeit", "-q")
    with pytest.raises(UsageError, match="not valid Python"):
        user.run_line_magic("lbtimeit", "f(x")


def test_an_empty_statement_names_the_magic_typed_in_its_example(user):
    # defect 38: %lbtime with nothing to time said "e.g. %lbtimeit f(x)"
    empty = r"^%lbtime: the statement is empty: give the code to time, e\.g\. %lbtime f\(x\)$"
    with pytest.raises(UsageError, match=empty):
        user.run_line_magic("lbtime", "-q")
    with pytest.raises(UsageError, match=r"e\.g\. %lbtimeit f\(x\)$"):
        user.run_line_magic("lbtimeit", "")


def test_out_shows_a_one_line_summary_of_a_measurement(user):
    m = run(user, "%lbtimeit -o -q --budget 0 -r 2 f(x)")
    data, _ = user.display_formatter.format(m)
    assert data["text/plain"] == measurement_summary(m)
    assert data["text/plain"].startswith("<Measurement 'f(x)' (numpy): median ")


def test_lbtime_times_one_cold_call_and_checks_the_result(user, capsys):
    cold = run(user, "%lbtime -o lambda: f(x)")
    out = flat(capsys.readouterr().out)
    assert "one cold call" in out and "wall time" in out and "LB001" in out
    assert cold.wall > 0 and [f.code for f in cold.findings] == ["LB001"]
    assert user.display_formatter.format(cold)[0]["text/plain"].startswith("<ColdCall 'lambda: f(x)' (python): wall ")
    with pytest.raises(UsageError, match="takes only options"):
        user.run_cell_magic("lbtime", "f(x)", "f(x)")


def test_lbcompare_returns_a_comparison_of_the_named_candidates(user, capsys):
    c = run(user, "%lbcompare -o --budget 0 --baseline mm dot=np.dot(x, x) mm=np.matmul(x, x)")
    assert isinstance(c, levelbench.Comparison)
    assert c.names == ["dot", "mm"] and c.baseline == "mm"
    assert c.notes == {"dot": "np.dot(x, x)", "mm": "np.matmul(x, x)"}
    assert "ratio to mm" in capsys.readouterr().out


def test_lbcompare_refuses_different_inputs_unless_told_not_to_be_strict(user):
    with pytest.raises(UsageError, match="(?s)refused to compare: different inputs.*--no-strict"):
        user.run_line_magic("lbcompare", "--budget 0 a=f(x) b=np.dot(x, x)")
    c = user.run_line_magic("lbcompare", "-o -q --no-strict --budget 0 a=f(x) b=np.dot(x, x)")
    assert any(finding.code == "LB301" for finding in c.findings)
    with pytest.raises(UsageError, match="--baseline c is not a candidate"):
        user.run_line_magic("lbcompare", "--baseline c a=f(x) b=f(x)")


INTERFERENCE = __import__("pathlib").Path(__file__).parent / "workloads" / "interference.py"


def test_lbcompare_isolate_builds_each_candidate_in_a_worker_process(user):
    c = user.run_line_magic("lbcompare", f"-o -q --isolate --budget 0.3 a={INTERFERENCE}:plus_one "
                                         f"b={INTERFERENCE}:plus_one")
    assert c.isolation.mode == "workers" and c.isolation.n_workers == 2
    with pytest.raises(UsageError, match="--isolate: 'nope.py' does not exist"):
        user.run_line_magic("lbcompare", f"--isolate a=nope.py:f b={INTERFERENCE}:plus_one")


def test_lbcompare_in_this_process_prints_candidates_slowing_each_other(user, capsys, monkeypatch):
    """%lbcompare prints LB305 for interference.py's FakeSpin (the pair on a fake clock, given to compare
    as its timer: exact ratios whatever the load). The spinner goes first, so every back-to-back victim
    sample follows its block: 40x it back to back, 20x with quiet gaps."""
    import functools
    import importlib.util

    from levelbench import _api
    from levelbench.ipython import _magics

    spec = importlib.util.spec_from_file_location("interference_magic", INTERFERENCE)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    fake = m.FakeSpin(monkeypatch)
    monkeypatch.setattr(_magics, "compare", functools.partial(_api.compare, timer=fake.clock))  # the magic's own name
    user.push({"victim": fake.victim, "spinner": fake.spinner, "z": np.zeros(4)})
    c = user.run_line_magic("lbcompare", "-o --budget 5 s=spinner(z) v=victim(z)")
    assert [f.title for f in c.findings if f.code == "LB305"] == [
        "candidates slow each other down in one process: back to back, v reads 40x s instead of 20x (+100%)"], str(c)
    assert "LB305 candidates slow each other down in one process: back to back, v reads 40x s" in flat(
        capsys.readouterr().out)


@pytest.mark.skipif(len(__import__("os").sched_getaffinity(0)) < 2, reason="interference needs 2 cores")
@pytest.mark.wallclock
def test_lbcompare_in_this_process_reports_candidates_slowing_each_other(user, capsys, quiet_machine):
    """On real threads and a real clock, %lbcompare in this process finds LB305 and prints it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("interference_magic", INTERFERENCE)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    user.push({"victim": m.victim().fn, "spinner": m.spinner().fn, "z": np.zeros(4)})
    c = user.run_line_magic("lbcompare", "-o --budget 5 v=victim(z) s=spinner(z)")
    assert any(f.code == "LB305" for f in c.findings), str(c)
    assert "LB305 candidates slow each other down" in flat(capsys.readouterr().out)


def test_the_cell_form_of_lbcompare_reads_one_candidate_per_line(user):
    c = user.run_cell_magic("lbcompare", "-o -q --budget 0", "dot = np.dot(x, x)\nmm = np.matmul(x, x)\n")
    assert c.names == ["dot", "mm"]


def test_reports_carry_html_and_plain_text():
    m = levelbench.measure(np.dot, np.ones((20, 20)), np.ones((20, 20)), budget=0, min_samples=2)
    report = RichDisplay(m, width=100)
    html = report._repr_html_()
    assert html.startswith("<pre") and "steady median" in html and "<span" in html
    assert str(report) == str(m)


def test_import_levelbench_ipython_does_not_import_ipython_until_loaded():
    import subprocess

    code = "import levelbench.ipython, sys; print('IPython' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# -- JAX: compile apart, dead outputs ---------------------------------------------------------
@pytest.fixture
def jax_user(user):
    pytest.importorskip("jax")
    run(user, """
import jax, jax.numpy as jnp
xj = jnp.ones((64, 64))

@jax.jit
def step(x):
    for _ in range(4):
        x = jnp.tanh(x @ x)
    return x

@jax.jit
def no_return(x):
    y = jnp.tanh(x @ x)
""")
    return user


def test_a_jitted_call_reports_its_compile_apart_from_the_steady_state(jax_user, capsys):
    m = run(jax_user, "%lbtimeit -o --budget 0.2 step(xj)")
    assert m.framework == "jax"
    assert m.compile is not None and m.compile.source == "aot" and not m.compile.cached
    assert m.compile_time == m.compile.total
    assert f"; compile {fmt_time(m.compile.total)})" in capsys.readouterr().out
    run(jax_user, "%lbtimeit -v --budget 0.2 step(xj)")
    out = flat(capsys.readouterr().out)
    assert "compile trace" in out and "first call" in out and "steady median" in out


def test_a_jitted_function_returning_none_is_flagged(jax_user, capsys):
    m = run(jax_user, "%lbtimeit -o --budget 0.1 no_return(xj)")
    assert m.has("LB002")
    assert "returns nothing: XLA removed all its work" in flat(capsys.readouterr().out)


def test_lbtime_names_the_compile_share_of_a_cold_jitted_call(jax_user, capsys):
    run(jax_user, "fresh = jax.jit(lambda x: jnp.sin(x) @ x)")
    cold = run(jax_user, "%lbtime -o fresh(xj)")
    assert cold.compilations == 1 and cold.compile_time > 0 and cold.jax_time <= cold.wall * 1.05
    out = flat(capsys.readouterr().out)
    assert "JAX compiled 1 program(s)" in out and "of the wall time" in out
    again = run(jax_user, "%lbtime -o -q fresh(xj)")
    assert again.compilations == 0


# -- %lbdoctor --------------------------------------------------------------------------------
def test_lbdoctor_lints_the_cells_run_so_far(user, capsys):
    pytest.importorskip("levelbench.doctor")
    first = user.execution_count
    user.run_cell("import jax\ndef fw(x):\n    for i in range(100):\n        x = x + 1\n\njf = jax.jit(fw)",
                  store_history=True)
    result = user.run_cell("found = %lbdoctor -o", store_history=True)
    assert result.success
    codes = {d.code for d in user.user_ns["found"]}
    assert {"LB106", "LB107"} <= codes  # a loop unrolled under jit, a jitted function returning nothing
    out = flat(capsys.readouterr().out)
    assert f"<session>:cell_{first}:3:5: LB106" in out  # cell N is In[N]
    with pytest.raises(UsageError, match="takes no arguments besides -o"):
        user.run_line_magic("lbdoctor", "file.py")
