"""The child process of ``doctor --run``: the user's script as ``__main__``, observed.

``python -m levelbench._auditing._child PARENT_PID STARTS_FD OBSERVATIONS retime|no-retime SCRIPT [ARGS...]``
runs SCRIPT the way ``python SCRIPT ARGS`` would (``sys.argv``, ``sys.path[0]``, ``__name__ == "__main__"``),
with the clocks observed, and writes what it saw to OBSERVATIONS (JSON) at the end, whatever the end: a return,
``sys.exit``, an exception (its traceback is printed, as Python prints it), or SIGINT/SIGTERM from the parent
when the time limit passed. As the script starts, it writes a byte on STARTS_FD (the parent's time limit counts
from there). Its exit status is the script's.
"""

from __future__ import annotations

import ast
import json
import linecache
import os
import runpy
import signal
import sys
import time
import traceback
from typing import Any

from pathlib import Path

from .._measuring.environment import thread_settings
from .._values.files import replace_file
from ._fair import fair_figures
from ._isolated import isolated_ratios
from ._notebook import cells, is_notebook, python_only, script_text
from ._observer import Observer

_perf_counter = time.perf_counter  # before the observer wraps it: the re-timing's own clock


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _die_with(parent: int) -> bool:
    """On Linux, end with the parent even if it is killed outright (SIGKILL): the script is in a session of its
    own, so nothing else would stop it. False if the parent is gone already."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes  # noqa: PLC0415 - Linux only

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # not fatal: the parent kills the group when it stops the script
            pass
    return os.getppid() == parent


def _run_notebook(script: str, text: str) -> None:
    """Run the cells of ``text`` in order in one IPython shell, as Jupyter would, the cells' code compiled under
    the name ``script`` at their lines in ``text`` (what the observer and a traceback read). The first failing
    cell's exception is raised here, as a script's would be; the cells after it do not run."""
    # lazy: IPython is needed for a notebook only, and must bind the clocks after the observer wrapped them
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"  # nothing written outside the script's own doing
    shell = InteractiveShell.instance(config=config)
    shell.showtraceback = lambda *args, **kwargs: None  # the failing cell's traceback is printed once, below
    lines = [line + "\n" for line in text.splitlines()]
    offset = [0]

    def cache(transformed_code: str, number: int = 0, raw_code: str | None = None) -> str:
        linecache.cache[script] = (len(text), None, lines, script)
        return script

    class AtFileLines(ast.NodeTransformer):
        def visit_Module(self, node: ast.Module) -> ast.Module:
            return ast.increment_lineno(node, offset[0])

    shell.compile.cache = cache
    shell.ast_transformers.append(AtFileLines())
    for start, cell in cells(text):
        offset[0] = start - 1
        result = shell.run_cell(cell, store_history=True)
        error = result.error_before_exec or result.error_in_exec
        if error is not None:
            raise error


def is_test_file(path: Path) -> bool:
    """A pytest test file (``test_*.py``, ``*_test.py``): ``doctor --run`` runs it under pytest, where
    pytest-benchmark's ``benchmark`` fixture times what the tests give it."""
    return path.suffix == ".py" and (path.name.startswith("test_") or path.stem.endswith("_test"))


def _run_tests(script: str, args: list[str]) -> None:
    """Run the test file under pytest (no cache written); a failing or empty run exits with pytest's status."""
    # lazy: pytest is needed for a test file only, and must bind the clocks after the observer wrapped them
    import pytest

    # This pytest runs the file alone, in this process: a worker id inherited from a parallel pytest (xdist)
    # that started levelbench would make pytest-benchmark think it runs in parallel and time nothing.
    os.environ.pop("PYTEST_XDIST_WORKER", None)
    code = int(pytest.main([script, "-q", "-p", "no:cacheprovider", *args]))
    if code != 0:
        raise SystemExit(code)


def main(argv: list[str]) -> int:
    if not _die_with(int(argv[1])):
        return 0  # the parent died before this child could ask to die with it
    # the path as given: sys.argv[0] and the code's file name are what `python SCRIPT` would make them
    starts, observations, retime, script, args = int(argv[2]), argv[3], argv[4] == "retime", argv[5], argv[6:]
    text = script_text(Path(script))
    notebook = is_notebook(Path(script), text)
    tests = not notebook and is_test_file(Path(script))
    observer = Observer(os.path.abspath(script) if tests else script)  # pytest compiles the file by its full path
    signal.signal(signal.SIGTERM, _stop)
    # The parent stops the script with SIGINT (its time limit, a Ctrl-C) and reads what it saw from the file
    # written after the KeyboardInterrupt. A levelbench started with SIGINT ignored (a job put in the
    # background by a shell without job control, nohup, some CI runners) passes that on to this child,
    # where the script would run on until killed, its observations lost: here SIGINT always interrupts.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.argv = [script, *args]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    outcome: dict[str, Any] = {"status": "finished", "exit_code": 0, "error": "", "traceback": ""}
    try:
        os.write(starts, b"s")  # the parent's time limit starts now
    except OSError:  # the parent stopped waiting (it is stopping this child)
        pass
    os.close(starts)  # the script and what it starts never see it
    started = _perf_counter()
    observer.install()
    try:
        if notebook:
            _run_notebook(script, text)
        elif tests:
            _run_tests(script, args)
        else:
            runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code
        if code is None:
            code = 0
        elif not isinstance(code, int):
            print(code, file=sys.stderr)  # as Python does with sys.exit("message")
            code = 1
        outcome.update(status="finished" if code == 0 else "exited", exit_code=code)
    except KeyboardInterrupt as e:
        outcome.update(status="interrupted", exit_code=130, error=str(e) or "SIGINT")
    except BaseException as e:  # noqa: B902 - the user's code may raise anything; it is reported
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != script:
            tb = tb.tb_next  # runpy's frames and ours are not the user's
        text = "".join(traceback.format_exception(type(e), e, tb or e.__traceback__))
        sys.stderr.write(text)
        outcome.update(status="raised", exit_code=1, error=f"{type(e).__name__}: {e}", traceback=text)
    outcome["wall_s"] = _perf_counter() - started
    outcome["instrumented"] = observer.instrumented()  # the script's run alone: re-timing dispatches and compiles too
    if "numpy" in sys.modules:  # the BLAS threads the script's NumPy ran with, before re-timing loads more
        try:
            outcome["threads"] = thread_settings()
        except Exception:  # threadpoolctl failing on an odd library: the report goes on without it
            pass
    try:
        observer.finish(wait=1.0 if outcome["status"] == "interrupted" else 60.0)
        if retime and outcome["status"] == "finished" and observer.namespaces:
            source = python_only(text) if notebook else text
            observer.fair = fair_figures(source, script, observer.namespaces, timer=_perf_counter)
            observer.isolated = isolated_ratios(source, script, observer.namespaces, observer.fair,
                                                os.path.dirname(observations), timer=_perf_counter)
    except KeyboardInterrupt:
        pass  # stopped after the script's end: its own run is reported whole
    except Exception as e:  # a bug of levelbench's must not lose the report of the script's run
        if not observer.fair:  # (made, they stay: `isolated_ratios` says itself why a pair failed)
            observer.fair = {f"{o}:{c}": {"refused": f"re-timing failed: {type(e).__name__}: {e}"}
                             for o, c in observer.namespaces}
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # the script closed or replaced it
            pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal while writing: the file stays whole
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replace_file(observations, json.dumps({**outcome, **observer.to_json()}))
    return outcome["exit_code"]


if __name__ == "__main__":
    sys.exit(main(sys.argv))
