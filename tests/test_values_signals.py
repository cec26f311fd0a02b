"""`killed_by`: the one reading of a child's return code that the audit, the isolated commands and the
measuring workers share (each says its own sentence around the name)."""

from __future__ import annotations

import signal
import subprocess
import sys

from levelbench import audit_script
from levelbench._values.signals import killed_by


def _return_code(code: str) -> int:
    return subprocess.run([sys.executable, "-c", code], check=False).returncode


def test_a_child_killed_by_a_signal_is_named_by_it():
    code = _return_code("import os, signal; os.kill(os.getpid(), signal.SIGTERM)")
    assert code == -signal.SIGTERM
    assert killed_by(code) == "SIGTERM"


def test_a_child_that_exits_by_itself_was_killed_by_nothing():
    assert killed_by(_return_code("import os; os._exit(3)")) is None
    assert killed_by(0) is None


def test_a_signal_this_platform_does_not_name_is_given_by_number():
    assert killed_by(-99) == "signal 99"


def test_doctor_run_says_which_signal_killed_the_script_or_its_exit_code(tmp_path):
    """The audit's own sentence around `killed_by` (``doctor --run``: the script died before it could report)."""
    killed = tmp_path / "killed.py"
    killed.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    exited = tmp_path / "exited.py"
    exited.write_text("import os\nos._exit(5)\n")
    audit = audit_script(str(killed))
    assert (audit.status, audit.error) == ("died", "the process was killed by SIGKILL before it could report")
    assert audit_script(str(exited)).error == (
        "the script ended the process with exit code 5 (os._exit) before it could report")
