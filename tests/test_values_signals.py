"""`killed_by`: the one reading of a child's return code that the audit, the isolated commands and the
measuring workers share (each says its own sentence around the name)."""

from __future__ import annotations

import signal
import subprocess
import sys

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
