"""Defects 13, 18, 19, 23, 24 and 38 of the 2026-12-02 probe: `explain` and `measure` run the user's code in a
child process. A function that raises, never returns, exits or crashes, a module that hangs or exits at import,
and prints on standard output each end in one line on stderr and a levelbench exit code, not the user's."""

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import levelbench_cli
from _support import marked_processes, marker_env, wait_for

pytestmark = pytest.mark.reliability

TARGETS = textwrap.dedent('''
    import os, sys, time

    def raises(x):
        raise ValueError("boom")

    def wrongargs(x):
        return x

    def gen(x):
        yield x

    def never(x):
        while True:
            time.sleep(1)

    def exits(x):
        sys.exit(4)

    def hard_exit(x):
        os._exit(5)

    def segfault(x):
        import ctypes
        ctypes.string_at(0)

    def prints(x):
        print("hello from the user's code")
        return x

    raises_args = gen_args = never_args = exits_args = hard_exit_args = segfault_args = prints_args = (1,)
    wrongargs_args = (1, 2, 3)
''')


@pytest.fixture
def targets(tmp_path):
    (tmp_path / "ok.py").write_text(TARGETS)
    return tmp_path


def last_line(r: subprocess.CompletedProcess) -> str:
    return r.stderr.strip().splitlines()[-1]


def explain(*args: str, cwd, timeout: float = 120) -> subprocess.CompletedProcess:
    return levelbench_cli("explain", "--budget", "1", *args, cwd=cwd, timeout=timeout)  # a later --budget wins


# -- 13: a call that does not run is a failure, not "nothing found" ----------------------------------
@pytest.mark.parametrize("name, message", [
    ("raises", "levelbench explain: calling raises as given raised ValueError: boom at ok.py:5 in raises: "
               "explain needs a call that runs; fix the function or its example arguments"),
    ("wrongargs", "levelbench explain: calling wrongargs with the example arguments (3 positional, 0 keyword) "
                  "raised TypeError: wrongargs() takes 1 positional argument but 3 were given: make the example "
                  "arguments fit wrongargs(x) (they are wrongargs_args in ok.py)"),
    ("gen", "levelbench explain: gen returned a lazy generator: nothing ran, so there is nothing to diagnose "
            "(LB001)"),
])
def test_a_call_that_does_not_run_is_one_line_and_exit_1(targets, name, message):
    r = explain(f"ok.py::{name}", cwd=targets)
    assert r.returncode == 1, r.stderr
    assert r.stderr.strip().startswith(message) and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "nothing found" not in r.stdout + r.stderr


def test_a_jax_function_that_always_raises_is_a_failure(tmp_path):
    pytest.importorskip("jax")
    (tmp_path / "ok.py").write_text("import jax.numpy as jnp\n\ndef raises(x):\n    raise ValueError('boom')\n\n"
                                    "raises_args = (jnp.ones(3),)\n")
    r = explain("ok.py::raises", cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert last_line(r).startswith("levelbench explain: calling raises as given raised ValueError: boom at ok.py:4")
    assert r.stdout == ""


# -- 18, 19: a hard wall-clock limit ------------------------------------------------------------------
def test_explain_stops_a_function_that_never_returns_at_the_timeout(targets):
    t0 = time.monotonic()
    r = explain("ok.py::never", "--timeout", "3", cwd=targets, timeout=60)
    assert time.monotonic() - t0 < 30
    assert r.returncode == 1
    assert last_line(r).startswith("levelbench explain: stopped after 3 s (--timeout) while ")
    assert "raise --timeout" in last_line(r)


def test_explain_stops_a_module_that_hangs_at_import_and_says_so(tmp_path):
    (tmp_path / "hang.py").write_text("import time\ntime.sleep(300)\ndef f(x):\n    return x\nf_args = (1,)\n")
    r = explain("hang.py::f", "--timeout", "2", cwd=tmp_path, timeout=60)
    assert r.returncode == 1
    assert last_line(r).startswith("levelbench explain: stopped after 2 s (--timeout) while importing hang.py")


def test_explain_help_documents_the_timeout_and_its_default():
    r = levelbench_cli("explain", "--help")
    assert "--timeout" in r.stdout and "120 + 5 x --budget" in " ".join(r.stdout.split())


def test_measure_stops_a_slow_statement_at_the_timeout_and_kills_it():
    env = marker_env()
    t0 = time.monotonic()
    r = levelbench_cli("measure", "time.sleep(100)", "-s", "import time", "--budget", "0.3", "--timeout", "2",
                       env=env, timeout=60)
    assert time.monotonic() - t0 < 30
    assert r.returncode == 1
    assert r.stderr.strip() == ("levelbench measure: stopped after 2 s (--timeout) while timing 'time.sleep(100)'; "
                                "nothing was reported: raise --timeout (0: no limit), or fix what does not return")
    wait_for(lambda: not marked_processes(env["LEVELBENCH_TEST_MARK"]), timeout=10)


@pytest.mark.parametrize("option, message", [
    (("-n", "99999999999999999999"), "levelbench measure: -n must be calls per sample from 1 to 1,000,000,000, "
                                     "got 99999999999999999999: more would make one sample outlast any budget"),
    (("-n", "0"), "levelbench measure: -n must be at least 1 call per sample, got 0"),
    (("--budget", "nan"), "levelbench measure: --budget must be a number of seconds >= 0, got nan: e.g. --budget 5"),
])
def test_measure_options_out_of_range_are_one_line_and_exit_2(option, message):
    r = levelbench_cli("measure", "1", *option, timeout=60)
    assert r.returncode == 2
    assert r.stderr.strip().startswith(message) and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_explain_budget_nan_is_one_line_and_exit_2(targets):
    r = explain("ok.py::raises", "--budget", "nan", cwd=targets)
    assert r.returncode == 2
    assert r.stderr.strip() == "levelbench explain: --budget must be a finite number of seconds > 0, got nan: " \
                               "e.g. --budget 10"


# -- 23: exits and crashes of the user's code ---------------------------------------------------------
@pytest.mark.parametrize("name, message", [
    ("exits", "levelbench explain: the code called sys.exit(4) while "),
    ("hard_exit", "levelbench explain: the code ended the process with exit code 5 (os._exit(5), or exit() in "
                  "native code) while "),
    ("segfault", "levelbench explain: the process crashed with SIGSEGV (a segmentation fault in native code) while "),
])
def test_explain_reports_an_exit_or_a_crash_of_the_function_in_one_line(targets, name, message):
    r = explain(f"ok.py::{name}", cwd=targets)
    assert r.returncode == 1
    assert last_line(r).startswith(message), r.stderr


def test_explain_reports_an_exit_at_import(tmp_path):
    (tmp_path / "bye.py").write_text("import os\nos._exit(6)\n")
    r = explain("bye.py::f", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.strip() == ("levelbench explain: the code ended the process with exit code 6 (os._exit(6), or "
                                "exit() in native code) while importing bye.py; nothing was reported")


@pytest.mark.parametrize("args, message", [
    (("1", "-s", "raise SystemExit(5)"), "levelbench measure: the code called sys.exit(5) while running the setup "
                                         "code"),
    (("os._exit(7)", "-s", "import os"), "levelbench measure: the code ended the process with exit code 7"),
    (("ctypes.string_at(0)", "-s", "import ctypes"), "levelbench measure: the process crashed with SIGSEGV"),
])
def test_measure_reports_an_exit_or_a_crash_in_one_line(args, message):
    r = levelbench_cli("measure", *args, "--budget", "0.1", timeout=60)
    assert r.returncode == 1
    assert last_line(r).startswith(message), r.stderr


# -- 24: the user's prints do not reach standard output -----------------------------------------------
def test_measure_json_on_stdout_parses_when_the_code_prints():
    r = levelbench_cli("measure", 'print("x")', "--format", "json", "--budget", "0.1", timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["format"] == "levelbench.measurement"
    assert r.stderr.startswith("x\n")


def test_explain_json_on_stdout_parses_when_the_function_prints(targets):
    r = explain("ok.py::prints", "--format", "json", "--quick", cwd=targets)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["label"] == "prints"
    assert "hello from the user's code" in r.stderr
