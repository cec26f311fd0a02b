"""pytest plugin (entry point ``pytest11``): the ``levelbench`` fixture for timing tests.

::

    def test_jax_is_not_slower_than_torch(levelbench):
        c = levelbench.compare({"jax": (f, (x,)), "torch": (g, (xt,))})
        assert c.ratio("jax", "torch").upper < 1.2    # fails with the measured table

Options: ``--levelbench-budget SECONDS`` (sampling budget of every measure/compare in the run),
``--levelbench-skip`` (skip the timing tests), and, as pytest-benchmark has them,
``--levelbench-save[=NAME]`` / ``--levelbench-autosave`` (the session as one stored run; nothing
is stored otherwise), ``--levelbench-json PATH``, ``--levelbench-compare[=REF]`` with
``--levelbench-compare-fail=median:5%``, and ``--levelbench-disable`` (each timing test once,
untimed; see `unmeasured`). Tests using the fixture get the ``levelbench`` marker, so
``-m levelbench`` / ``-m "not levelbench"`` select them. Under pytest-xdist with several workers
timing is meaningless (the workers share the CPUs), so those tests are skipped, with a notice at
the end of the run.

This module is imported by every pytest run once levelbench is installed: it imports nothing
beyond pytest until a test asks for the fixture, and prints nothing unless the fixture was used.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from .options import SessionOptions, add_options, read_options

_RESULTS = pytest.StashKey[Any]()  # SessionResults, created when the fixture is first used
_OPTIONS = pytest.StashKey[SessionOptions]()
_XDIST_SKIPPED = pytest.StashKey[int]()
_ITEM_FIXTURE = pytest.StashKey[Any]()  # the test's Levelbench, to show its results on failure

XDIST_NOTICE = "levelbench: timing disabled under pytest-xdist"


def _budget(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected seconds >= 0, e.g. --levelbench-budget 0.5, got {text!r}")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("levelbench", "levelbench timing tests")
    group.addoption("--levelbench-budget", type=_budget, default=None, metavar="SECONDS",
                    help="seconds of sampling for every levelbench measure/compare in this run "
                         "(overrides the tests' own budget=)")
    group.addoption("--levelbench-skip", action="store_true", default=False,
                    help="skip the tests that use the levelbench fixture")
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "levelbench: a timing test (uses the levelbench fixture); set automatically")
    config.stash[_XDIST_SKIPPED] = 0
    config.stash[_OPTIONS] = read_options(config)
    if getattr(config.option, "numprocesses", None):  # the xdist controller
        config.pluginmanager.register(_XdistSkips(config), "levelbench-xdist-skips")


def _skip_reason(config: pytest.Config) -> str | None:
    if config.getoption("levelbench_skip"):
        return "levelbench timing test skipped (--levelbench-skip)"
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    if workers > 1:
        return (f"{XDIST_NOTICE}: {workers} parallel workers share the CPUs, so times measured in them are "
                "meaningless; run the timing tests in one process: pytest -m levelbench -p no:xdist")
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _skip_reason(config)
    for item in items:
        if "levelbench" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.levelbench)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def levelbench(request: pytest.FixtureRequest) -> Any:
    """`levelbench.measure` and `levelbench.compare` for a test, recorded and summarised.

    ``levelbench.compare(...).ratio("jax", "torch")`` is a `Ratio` (estimate, lower, upper): assert
    on its bounds, e.g. ``.upper < 1.2``; a failing assertion prints the measured table.
    """
    config = request.config
    reason = _skip_reason(config)
    if reason:
        pytest.skip(reason)
    # lazy: pytest loads this plugin in every session: levelbench's engine loads when a test first asks for it
    from .fixture import Levelbench

    results = _session(config)
    disabled = config.stash[_OPTIONS].disabled
    if disabled:
        results.add_untimed(request.node.nodeid)
    bench = Levelbench(request.node.nodeid, config.getoption("levelbench_budget"), results.add, disabled)
    request.node.stash[_ITEM_FIXTURE] = bench
    return bench


def _session(config: pytest.Config) -> Any:
    """This session's `SessionResults`, created on first use (so runs without timing tests import nothing)."""
    if _RESULTS not in config.stash:
        # lazy: pytest loads this plugin in every session: levelbench's engine loads when a test first asks for it
        from .session import SessionResults

        config.stash[_RESULTS] = SessionResults(config.stash[_OPTIONS], tuple(config.invocation_params.args))
    return config.stash[_RESULTS]


def _controller(config: pytest.Config) -> bool:
    """False in a pytest-xdist worker: only the process the user started saves, writes and compares."""
    return not hasattr(config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    options = session.config.stash[_OPTIONS]
    if options.compare and not options.disabled and _controller(session.config):
        _session(session.config).resolve_reference()  # a wrong REF stops the run before any test


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    options = config.stash[_OPTIONS]
    if not _controller(config):
        # A pytest-xdist worker that timed tests (-n 1) ends the run it recorded; the controller compares and writes
        if _RESULTS in config.stash:
            config.stash[_RESULTS].end_run(interrupted=exitstatus == pytest.ExitCode.INTERRUPTED)
        return
    if _RESULTS not in config.stash and options.json_path is None and options.compare is None:
        return
    results = _session(config)
    results.finish(interrupted=exitstatus == pytest.ExitCode.INTERRUPTED)
    if results.regressed and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: Any, right: Any) -> list[str] | None:
    assertions = sys.modules.get("levelbench.pytest_plugin.assertions")
    if assertions is None:  # no ratio was ever built, so none can be in this assertion
        return None
    return assertions.explain(op, left, right)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    bench = item.stash.get(_ITEM_FIXTURE, None)
    if bench is not None and report.when == "call" and report.failed and bench.results:
        report.sections.append(("levelbench: what this test measured", bench.report()))
    return report


class _XdistSkips:
    """On the xdist controller, counts the timing tests the workers skipped, for one notice at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.skipped and XDIST_NOTICE in str(report.longrepr):
            self.config.stash[_XDIST_SKIPPED] += 1


@pytest.hookimpl(trylast=True)  # after other plugins' summaries (pytest-benchmark's table), whatever their load order
def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    skipped = config.stash.get(_XDIST_SKIPPED, 0)
    results = config.stash.get(_RESULTS, None)
    lines = results.summary() if results is not None else []
    if not skipped and not lines:
        return
    terminalreporter.write_sep("=", "levelbench")
    if skipped:
        terminalreporter.write_line(
            f"{skipped} timing test(s) skipped: pytest-xdist runs them in parallel workers that share the CPUs, "
            "where times are meaningless. Run them in one process: pytest -m levelbench -p no:xdist",
            yellow=True,
        )
    for line in lines:
        terminalreporter.write_line(line, red=line.startswith("FAILED:"))


def pytest_unconfigure(config: pytest.Config) -> None:
    results = config.stash.get(_RESULTS, None)
    if results is not None:
        results.close()
