"""``levelbench doctor --run``: run the user's script as written and report what each of its clocks measured.

`audit_script` runs the script in a child process (`_child`), where every clock read of the script's is
observed (`_observer`): the pairs of reads the script subtracts are its timed intervals, and inside each,
JAX's compilations and the work still running when the clock stopped are measured. `_analysis` turns
what was seen into `TimedInterval`s with findings in the doctor's codes (LB101, LB102, LB103, LB104, LB107,
LB111, LB114, LB115, LB117), `_dispatch` counts what each sample asked of JAX, `_notebook` splits a notebook into cells, and
`_fair` re-times each interval's statements once the script has ended.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .._results.script_audit import ScriptAudit, ThreadSettings
from .._values.settings import child_environment
from .._values.signals import interrupts_held, killed_by
from ._analysis import intervals, isolated_ratios
from ._notebook import script_text

DEFAULT_TIMEOUT = 300.0
"""Seconds a script may run under ``doctor --run`` before it is stopped (``--timeout``), counted from its first line."""
START_UP = 60.0
"""Seconds the script's process may take to reach the script's first line (an interpreter, levelbench's imports)
when that is longer than the time limit; past it the script is stopped as at the limit."""
GRACE = 5.0
"""Seconds a stopped script gets to write what was observed before it is killed."""
OUTPUT_KEPT = 100_000
"""Characters of a captured output kept in the audit (its end)."""

__all__ = ["DEFAULT_TIMEOUT", "OUTPUTS", "audit_script"]


OUTPUTS = ("shown", "captured", "stderr")


def audit_script(path: str | os.PathLike[str], argv: tuple[str, ...] | list[str] = (), *,
                 timeout: float = DEFAULT_TIMEOUT, output: str = "shown", retime: bool = True) -> ScriptAudit:
    """Run the Python script ``path`` with ``argv`` as ``__main__`` in a child process and audit its timing.

    A notebook (``.ipynb``), or a ``.py`` with IPython syntax (``%timeit``, ``%%time``; cells split at ``# %%``
    lines), runs cell by cell in one IPython shell, as in Jupyter, its timing magics observed like any clock;
    the first failing cell ends the run like an exception ends a script.

    This runs the user's code. Its ``output``: ``"shown"`` on this process's standard output and error,
    ``"captured"`` (both kept in `ScriptAudit.output`), or ``"stderr"`` (its standard output goes to this
    process's standard error, leaving standard output to a report). Past ``timeout`` seconds (0: no limit),
    counted from the script's first line (the child process's own start-up is not the script's), the script is
    stopped and what ran before is returned, marked partial; Ctrl-C (a ``KeyboardInterrupt`` here)
    does the same, with the status ``interrupted``. Once the script has finished, the statements of each
    interval are re-timed (`ScriptAudit` intervals' ``fair``); a stop then leaves the rest un-timed only.
    ``retime=False`` skips that (no fair figures: the findings alone, about a second sooner per interval).

    !!! Example
        ```python
        audit = levelbench.audit_script("bench.py", ["--n", "1000"])
        for interval in audit.intervals:
            print(interval.lines, interval.measured, [f.code for f in interval.findings])
        ```

    Raises:
        FileNotFoundError: ``path`` is not a file.
        ValueError: ``path`` is a ``.ipynb`` that is not JSON, or ``output`` is not one of `OUTPUTS`.
    """
    if output not in OUTPUTS:
        raise ValueError(f"output: expected one of {', '.join(OUTPUTS)}, got {output!r}")
    capture = output == "captured"
    script = Path(path)
    if not script.is_file():
        raise FileNotFoundError(f"doctor --run: expected a Python script, got {str(path)!r}, which is not a file")
    source = script_text(script)  # a notebook that is not JSON raises here, before anything runs
    args = [str(a) for a in argv]
    with tempfile.TemporaryDirectory(prefix="levelbench-run-") as folder:
        observations = os.path.join(folder, "observations.json")
        starts, starting = os.pipe()  # the child writes a byte on it as the script starts
        command = [sys.executable, "-m", "levelbench._auditing._child", str(os.getpid()), str(starting),
                   observations, "retime" if retime else "no-retime", str(script), *args]
        stdout = subprocess.PIPE if capture else sys.__stderr__ if output == "stderr" else None
        started = time.perf_counter()
        child: subprocess.Popen | None = None
        stopped = ""
        early = bytearray()  # what the child printed (captured) before the script started
        try:
            # A Ctrl-C while the child starts waits until `child` is known (else it would be lost, the script
            # running on in a session of its own for as long as this process lives), then stops it below.
            with interrupts_held() as interrupt:
                child = subprocess.Popen(command, env=child_environment(), stdin=subprocess.DEVNULL, stdout=stdout,
                                         stderr=subprocess.STDOUT if capture else None, start_new_session=True,
                                         pass_fds=(starting,))
            if interrupt:
                raise interrupt[0]
            mine, starting = starting, -1  # the child's alone now: an end of file then says it ended
            os.close(mine)
            _wait_for_the_script(child, starts, timeout, early)
            captured, _ = child.communicate(timeout=timeout if timeout > 0 else None)
        except subprocess.TimeoutExpired:
            stopped = "timeout"
            captured = _stop(child)
        except KeyboardInterrupt:
            if child is None:  # nothing was started
                raise
            stopped = "interrupted"
            captured = _stop(child)
        finally:
            for fd in (starts, starting):
                if fd >= 0:
                    os.close(fd)
        if early:
            captured = bytes(early) + (captured or b"")
        wall = time.perf_counter() - started
        raw: dict | None = None
        try:
            with open(observations, encoding="utf-8") as f:
                raw = json.load(f)
        except (OSError, ValueError):
            raw = None
    text = (captured or b"").decode("utf-8", "replace")[-OUTPUT_KEPT:] if capture else ""
    code = child.returncode
    if raw is None:
        status = stopped or "died"
        return ScriptAudit(script=str(path), argv=tuple(args), status=status, exit_code=code, wall_s=wall,
                           partial=True, observed=False, output=text, captured=capture,
                           error=_death(code) if status == "died" else _stopped_why(stopped, timeout))
    status = str(raw.get("status", "finished"))
    if stopped and status == "finished":  # stopped while re-timing: the script's own run is whole
        error = f"{_stopped_why(stopped, timeout)} while re-timing the intervals, after the script finished"
    elif stopped:
        status, error = stopped, _stopped_why(stopped, timeout)
    else:
        error = str(raw.get("error", ""))
    return ScriptAudit(
        script=str(path), argv=tuple(args), status=status, exit_code=int(raw.get("exit_code", code)),
        wall_s=float(raw.get("wall_s", wall)), intervals=intervals(raw, source),
        partial=status in ("timeout", "interrupted", "raised", "exited"), error=error,
        traceback=str(raw.get("traceback", "")), output=text, captured=capture,
        jax_version=str(raw.get("jax_version", "")), unrecorded_reads=int(raw.get("unrecorded_reads", 0)),
        isolated=isolated_ratios(raw),
        threads=ThreadSettings.from_raw(raw["threads"]) if raw.get("threads") else None,
        instrumented={str(k): int(v) for k, v in raw.get("instrumented", {}).items()},
    )


def _wait_for_the_script(child: subprocess.Popen, starts: int, timeout: float, early: bytearray) -> None:
    """Wait until the child says its script starts (a byte on ``starts``) or ends before it does (end of file),
    keeping what it prints meanwhile in ``early`` when its output is captured (a full pipe would stop it).

    The time limit counts from there: the child's start-up (an interpreter, levelbench's imports, seconds on a
    loaded machine) is not the script's. It gets `START_UP` seconds, or the limit if longer: past that,
    ``subprocess.TimeoutExpired`` (the script is stopped as at the limit)."""
    watched = [starts] + ([child.stdout.fileno()] if child.stdout is not None else [])
    deadline = time.monotonic() + max(timeout, START_UP) if timeout > 0 else None
    while starts in watched:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise subprocess.TimeoutExpired(child.args, timeout)
        for fd in select.select(watched, [], [], left)[0]:
            chunk = os.read(fd, 65536)
            if chunk and fd != starts:
                early += chunk
            else:  # the script starts, or a stream ended
                watched.remove(fd)


def _stop(child: subprocess.Popen) -> bytes | None:
    """SIGINT (the script sees KeyboardInterrupt and the child writes what it saw), then SIGKILL after `GRACE`."""
    try:
        os.killpg(child.pid, signal.SIGINT)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        captured, _ = child.communicate(timeout=GRACE)
        return captured
    except (subprocess.TimeoutExpired, KeyboardInterrupt):
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        captured, _ = child.communicate()
        return captured


def _stopped_why(stopped: str, timeout: float) -> str:
    if stopped == "timeout":
        return f"stopped after {timeout:g} s (the time limit; raise it with --timeout, 0 for none)"
    return "stopped by Ctrl-C (or SIGTERM)"


def _death(code: int) -> str:
    """Why the child ended without writing what it saw."""
    if (name := killed_by(code)) is not None:
        return f"the process was killed by {name} before it could report"
    return f"the script ended the process with exit code {code} (os._exit) before it could report"
