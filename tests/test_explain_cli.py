"""``levelbench explain FILE.py::function`` as a user runs it: a subprocess, its exit code, stdout and stderr."""

import json
import subprocess
import sys
import textwrap

import pytest
from conftest import levelbench_cli

MODEL = textwrap.dedent('''
    import jax
    import jax.numpy as jnp

    W = jnp.eye(8) * 0.5

    @jax.jit
    def forward(w, xs):
        h = jnp.zeros(8)
        for x in xs:
            h = jnp.tanh(w @ h + x)
        # returns nothing, like the seed question

    def forward_args():
        return W, jnp.ones((64, 8))

    OTHER_ARGS = (W, jnp.ones((32, 8)))

    if __name__ == "__main__":
        raise SystemExit("the module's main block must not run")
''')

PLAIN = textwrap.dedent('''
    def forward(x):
        return x

    def helper():
        return 1
''')


def run(*args, cwd):
    return levelbench_cli("explain", *args, cwd=cwd)


@pytest.fixture
def model(tmp_path):
    pytest.importorskip("jax")
    (tmp_path / "model.py").write_text(MODEL)
    return tmp_path


def test_report_of_a_module_function(model):
    r = run("model.py::forward", "--budget", "3", "--probe", "unrolled", "--probe", "dead", cwd=model)
    assert r.returncode == 0, r.stderr
    assert "explain forward" in r.stdout
    assert "LB201" in r.stdout and "LB220" in r.stdout
    assert r.stdout.index("LB201") < r.stdout.index("LB220")
    assert "Traceback" not in r.stderr


def test_json_with_named_arguments_and_scale_axis(model):
    r = run("model.py::forward", "--args", "OTHER_ARGS", "--scale-axis", "xs:0", "--json", "--probe", "unrolled",
            cwd=model)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["format"] == "levelbench.diagnosis" and d["label"] == "forward"
    [unrolled] = [f for f in d["findings"] if f["code"] == "LB201"]
    assert unrolled["data"]["length"] == 32 and unrolled["data"]["argument"] == "xs"
    assert d["measured"]["scale"]["axis"]["guessed"] is False


@pytest.mark.parametrize("target, message", [
    ("model.py", "expected FILE.py::FUNCTION, got 'model.py'"),
    ("missing.py::forward", "no such file 'missing.py'"),
    ("model.py::nope", "model.py has no 'nope'; functions defined there: forward, helper"),
    ("model.py::forward", "gives no example arguments for forward: add `def forward_args(): return (x, y)`"),
])
def test_usage_errors_are_one_line_with_the_fix_and_exit_2(tmp_path, target, message):
    (tmp_path / "model.py").write_text(PLAIN)
    r = run(target, cwd=tmp_path)
    assert r.returncode == 2
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert r.stdout == ""


def test_a_missing_name_in_a_module_of_private_functions_lists_them_and_how_to_name_one(tmp_path):
    # defect 38: "functions defined there: none" when only _private ones exist
    (tmp_path / "priv.py").write_text("def _helper(x):\n    return x\n\ndef _other(x):\n    return x\n")
    r = run("priv.py::nothere", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip() == ("levelbench explain: priv.py has no 'nothere'; functions defined there: none public, "
                                "only private ones: _helper, _other (name one with its underscore, e.g. "
                                "priv.py::_helper)")


def test_a_module_that_fails_to_import_is_one_line_with_its_line(tmp_path):
    (tmp_path / "broken.py").write_text("x = 1\nraise ValueError('bad config')\n")
    r = run("broken.py::f", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.strip() == "levelbench explain: importing broken.py failed at line 2: ValueError: bad config"


def test_help_documents_the_example_argument_convention():
    r = levelbench_cli("explain", "--help")
    assert r.returncode == 0
    for name in ("FUNCTION_args", "example_args", "EXAMPLE_ARGS", "--scale-axis", "FUNCTION_calls"):
        assert name in r.stdout


def test_importing_explain_does_not_import_jax_or_torch():
    code = "import sys, levelbench._probing; print(sorted(m for m in ('jax', 'torch') if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]"
