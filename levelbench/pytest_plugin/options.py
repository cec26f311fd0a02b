"""The plugin's command-line options, read and checked once: what a session saves, writes and compares.

Imported by every pytest run once levelbench is installed, so it imports nothing beyond pytest.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
from pathlib import Path

import pytest

_REF = re.compile(r"^(\d+|latest(~\d+)?)$")
_FAIL = re.compile(r"^median:(?P<percent>\d+(\.\d+)?)%$")


@dataclasses.dataclass(frozen=True)
class SessionOptions:
    """What the session does with its results besides the summary.

    Attributes:
        save: record the session in the results store as one run (``--levelbench-save``,
            ``--levelbench-autosave``, or ``levelbench_autosave = true`` in the pytest configuration).
        label: the run's label (``--levelbench-save=NAME``), else empty.
        json_path: ``--levelbench-json PATH``: the session's run written there (``levelbench export`` JSON).
        compare: None (no comparison), ``""`` (the latest stored run of the same tests) or a run
            reference (``3``, ``latest``, ``latest~1``) from ``--levelbench-compare[=REF]``.
        fail_above: ``--levelbench-compare-fail=median:5%`` as 0.05: a median regression at least
            this big (and significant) fails the session; None: the table is only shown.
        disabled: ``--levelbench-disable``: each timing test runs its functions once, untimed.
    """

    save: bool = False
    label: str = ""
    json_path: str | None = None
    compare: str | None = None
    fail_above: float | None = None
    disabled: bool = False

    @property
    def min_effect(self) -> float:
        return 0.05 if self.fail_above is None else self.fail_above


def run_name(text: str) -> str:
    """``--levelbench-save=NAME``: any label (``feature/x``, a branch name, is one); whether a label that
    looks like a test path was written with ``=`` is checked in `read_options`, where the command line is."""
    return text


def _looks_like_a_path(text: str) -> bool:
    return os.sep in text or "/" in text or text.endswith(".py") or "::" in text or bool(text and Path(text).exists())


def _check_run_name(config: pytest.Config, name: str) -> None:
    """``--levelbench-save tests/`` took the test path as the run's name (argparse's optional value): refuse
    it; ``--levelbench-save=feature/x`` says the name is meant, whatever it looks like."""
    if not name or not _looks_like_a_path(name):
        return
    written = [str(a) for a in config.invocation_params.args]
    if f"--levelbench-save={name}" in written:
        return
    raise pytest.UsageError(
        f"--levelbench-save: expected a run name, got {name!r}, which looks like a test path taken as the name: "
        f"write --levelbench-save={name} with '=' if it is the name, or put --levelbench-save after the test paths")


def run_reference(text: str) -> str:
    """``--levelbench-compare=REF``: a run id, ``latest`` or ``latest~N``."""
    if text and not _REF.match(text):  # "" is --levelbench-compare alone
        raise argparse.ArgumentTypeError(
            f"expected a run id (3), latest or latest~N, got {text!r}: write --levelbench-compare=REF with '=', "
            "or --levelbench-compare alone for the latest saved run of the same tests")
    return text


def compare_fail(text: str) -> float:
    """``--levelbench-compare-fail=median:5%`` -> 0.05."""
    m = _FAIL.match(text.strip())
    if not m:
        raise argparse.ArgumentTypeError(
            f"expected median:PERCENT, e.g. --levelbench-compare-fail=median:5%, got {text!r} (levelbench judges "
            "the median with a Mann-Whitney test on the raw samples; min, mean and absolute limits are not offered)")
    return float(m["percent"]) / 100


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("levelbench", "levelbench timing tests")
    group.addoption("--levelbench-save", nargs="?", const="", default=None, type=run_name, metavar="NAME",
                    help="record this session's results in the results store as one run, labelled NAME "
                         "($LEVELBENCH_DB, default .levelbench/results.db)")
    group.addoption("--levelbench-autosave", action="store_true", default=False,
                    help="record this session's results as one run (labelled by nothing but its git commit)")
    group.addoption("--levelbench-json", default=None, metavar="PATH",
                    help="write this session's results to PATH as JSON (the form of `levelbench export`)")
    group.addoption("--levelbench-compare", nargs="?", const="", default=None, type=run_reference, metavar="REF",
                    help="compare this session with stored run REF (id, latest, latest~N; default: the latest "
                         "saved run of the same tests) and print the table")
    group.addoption("--levelbench-compare-fail", default=None, type=compare_fail, metavar="median:PERCENT",
                    help="with --levelbench-compare: fail the session when a median regressed by at least PERCENT "
                         "(significant by Mann-Whitney), e.g. median:5%%")
    group.addoption("--levelbench-disable", action="store_true", default=False,
                    help="run each timing test once as a plain test: functions called once, untimed, nothing "
                         "saved or compared")
    parser.addini("levelbench_autosave", type="bool", default=False,
                  help="record every session's levelbench results as one run (as --levelbench-autosave)")


def read_options(config: pytest.Config) -> SessionOptions:
    """The options of this session, checked together; a contradiction is a usage error."""
    saved_as = config.getoption("levelbench_save")
    _check_run_name(config, saved_as or "")
    autosave = config.getoption("levelbench_autosave") or bool(config.getini("levelbench_autosave"))
    json_path = config.getoption("levelbench_json")
    compare = config.getoption("levelbench_compare")
    fail_above = config.getoption("levelbench_compare_fail")
    if fail_above is not None and compare is None:
        raise pytest.UsageError(
            f"--levelbench-compare-fail=median:{fail_above:.0%} needs a run to compare with, got no "
            "--levelbench-compare: add --levelbench-compare (the latest saved run of these tests) or "
            "--levelbench-compare=REF")
    if json_path is not None:
        folder = Path(json_path).parent
        if Path(json_path).is_dir() or not folder.is_dir():
            raise pytest.UsageError(
                f"--levelbench-json: expected a file path in an existing directory, got {json_path!r}: "
                f"{'add a file name' if Path(json_path).is_dir() else f'create {folder} first'}")
    return SessionOptions(save=saved_as is not None or autosave, label=saved_as or "", json_path=json_path,
                          compare=compare, fail_above=fail_above, disabled=config.getoption("levelbench_disable"))
