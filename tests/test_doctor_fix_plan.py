"""`plan_fixes` and `fix_failed`: what ``doctor --fix``/``--diff`` shows, writes and exits with, as a library call."""

from levelbench.doctor import DoctorReport, FixResult, Shown, fix_failed, fix_source, plan_fixes

SOURCE = ("import time\nimport jax.numpy as jnp\nimport numpy as np\nx = np.random.normal((4, 4))\n"
          "h = jnp.zeros(3)\nfor v in jnp.ones((50, 3)):\n    h = jnp.tanh(v + h)\n")


def result(path: str, original: str, text: str, skipped: tuple[str, ...] = ()) -> FixResult:
    return FixResult(path, original, text, before=(), after=(), skipped=skipped)


def test_files_are_written_unchanged_ones_skipped_and_skipped_fixes_said_first():
    a, same, b = result("a.py", "x\n", "y\n", ("a.py:1: LB104 skipped",)), result("s.py", "x\n", "x\n"), \
        result("b.py", "1\n", "2\n")
    plan = plan_fixes([a, same, b], diff=False)
    assert plan.to_write == [a, b] and plan.changed
    assert plan.shown == [Shown("a.py:1: LB104 skipped\n", err=True)]


def test_diff_shows_each_change_in_order_and_writes_nothing():
    a, b = result("a.py", "x\n", "y\n"), result("b.py", "1\n", "2\n")
    plan = plan_fixes([a, result("s.py", "x\n", "x\n"), b], diff=True)
    assert plan.to_write == [] and plan.changed
    assert [s.text for s in plan.shown] == [a.diff(), b.diff()] and "+y" in a.diff()
    assert not plan_fixes([result("s.py", "x\n", "x\n")], diff=True).changed


def test_standard_input_is_shown_whole_fixed_or_as_its_diff_never_written():
    fixed = fix_source(SOURCE, "<stdin>")
    assert fixed.changed
    plan = plan_fixes([fixed], diff=False, stdin_name="<stdin>")
    assert plan.shown == [Shown(fixed.text)] and plan.to_write == [] and plan.changed
    assert plan_fixes([fixed], diff=True, stdin_name="<stdin>").shown == [Shown(fixed.diff())]
    assert plan_fixes([fixed], diff=False).to_write == [fixed]  # not read from standard input: a file


def test_the_command_fails_on_findings_left_a_non_empty_diff_or_a_file_not_written():
    clean = DoctorReport(diagnostics=(), files=("a.py",))
    left = fix_source(SOURCE, "a.py")
    dirty = DoctorReport(diagnostics=left.after, files=("a.py",))
    assert dirty.failing(), "the snippet should leave a finding no fix removes"
    assert not fix_failed(clean, diff=False, changed=True, unwritten=[])
    assert fix_failed(clean, diff=True, changed=True, unwritten=[])
    assert not fix_failed(clean, diff=True, changed=False, unwritten=[])
    assert fix_failed(clean, diff=False, changed=True, unwritten=["a.py"])
    assert fix_failed(dirty, diff=False, changed=False, unwritten=[])
