"""`levelbench.explain_target`: explain a function named FILE.py::NAME from Python, as the command does."""

import textwrap

import pytest

import levelbench
from levelbench import ExplainFailed, explain_target

CODE = textwrap.dedent('''
    NOT_A_FUNCTION = 3

    def forward(x):
        return x

    def broken(x):
        raise RuntimeError("boom")

    broken_args = (1,)

    def bad_args():
        raise KeyError("no data here")

    def bad_args_args():
        raise KeyError("no data here")
''')


@pytest.fixture
def code(tmp_path):
    (tmp_path / "code.py").write_text(CODE)
    return tmp_path / "code.py"


def test_it_is_the_public_name():
    assert levelbench.explain_target is explain_target and "explain_target" in levelbench.__all__


def test_a_jax_function_is_diagnosed_with_its_example_arguments(tmp_path):
    pytest.importorskip("jax")
    (tmp_path / "model.py").write_text(textwrap.dedent('''
        import jax.numpy as jnp

        def forward(x):
            jnp.sin(x)  # returns nothing

        def forward_args():
            return (jnp.ones(16),)
    '''))
    steps = []
    d = explain_target(f"{tmp_path / 'model.py'}::forward", probes=["dead"], budget=3, fixes=False,
                       progress=steps.append)
    assert d.label == "forward" and "LB220" in {f.code for f in d.findings}
    assert steps[:2] == [f"importing {tmp_path / 'model.py'}", "computing the example arguments of forward"]


@pytest.mark.parametrize("name, usage, message", [
    (None, True, "expected FILE.py::FUNCTION, got"),
    ("nope", True, "has no 'nope'; functions defined there: bad_args, bad_args_args, broken, forward"),
    ("NOT_A_FUNCTION", True, "NOT_A_FUNCTION in {where} is not a function (got int): name the function to diagnose"),
    ("forward", True, "gives no example arguments for forward: add `def forward_args(): return (x, y)` "
                      "(or example_args() / EXAMPLE_ARGS) to it, or name one with --args"),
    ("bad_args", False, "bad_args_args() failed: KeyError: 'no data here'"),
    ("broken", False, "boom"),
])
def test_each_failure_is_one_line_that_says_whether_the_name_or_the_code_is_wrong(code, name, usage, message):
    target = str(code) if name is None else f"{code}::{name}"
    with pytest.raises(ExplainFailed) as caught:
        explain_target(target, budget=1, fixes=False)
    assert caught.value.usage is usage
    assert message.format(where=code) in str(caught.value) and "\n" not in str(caught.value)


def test_args_name_picks_the_attribute_and_a_missing_one_says_it_came_from_args(code):
    with pytest.raises(ExplainFailed, match=r"has no attribute 'MISSING' \(given by --args\)") as caught:
        explain_target(f"{code}::forward", args_name="MISSING")
    assert caught.value.usage is True
