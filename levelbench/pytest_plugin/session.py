"""What the fixture measured in one pytest session: the summary, the session's stored run, its JSON
file and its comparison with a stored run.

The session is one run (kind ``pytest``) and each result of a test one of its results, named
``<test node id>::<label>``, so ``levelbench diff`` and ``history`` follow a test across sessions.
Nothing is stored unless the options ask (`SessionOptions.save`). The run is recorded as
``levelbench run`` records its own (`levelbench._recording.Recording`): each result committed as it
comes, a Ctrl-C that stops the session leaves it ``interrupted`` with what finished, a store that
fails while recording leaves it ``failed`` with the reason. Such a failure is reported once in the
summary and never fails a test.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from typing import Any

from .fixture import Record
from .options import SessionOptions
from .._recording import Recording, RunOutcome
from .._rendering.store import render_diff
from .._values.display import plain
from .._values.files import replace_file
from .._values.units import fmt_time
from ..store import (
    StoreError, detect_git_commit, open_store, diff_runs, previous_run, export_json, Run, StoredResult,
    RUN_INTERRUPTED, RUN_OK, as_comparison, run_status, workload_result)

KIND = "pytest"


class SessionResults:
    """Collects every `Record` of the session; stores, writes and compares them as options say."""

    def __init__(self, options: SessionOptions | None = None, argv: tuple[str, ...] | None = None) -> None:
        self.options = options or SessionOptions()
        self.argv = list(argv if argv is not None else sys.argv[1:])
        self.started = time.time()
        self.records: list[Record] = []
        self.names: list[str] = []  # the stored workload name of each record
        self.untimed: set[str] = set()  # tests run once, untimed (--levelbench-disable)
        self.recording: Recording | None = None  # the session's stored run, begun with its first result
        self.outcome: RunOutcome | None = None  # how that run ended
        self.interrupted = False
        self.reference: int | None = None  # --levelbench-compare=REF, resolved at the start
        self.store_location: str | None = None
        self.store_problem: str | None = None
        self.compare_lines: list[str] = []
        self.regressed = False
        self.json_written: str | None = None
        self._store: Any = None
        self._git_commit: str | None = None

    # -- during the session ----------------------------------------------------------------------
    def add(self, record: Record) -> None:
        self.records.append(record)
        self.names.append(self._name(record))
        if self.options.save:
            self._record(self.names[-1], record)

    def add_untimed(self, nodeid: str) -> None:
        self.untimed.add(nodeid)

    def _name(self, record: Record) -> str:
        res = record.result
        label = (res.title or "+".join(res.names)) if hasattr(res, "measurements") else res.label
        name = f"{record.nodeid}::{label}"  # the workload name runs are matched by: keep it stable
        taken = self.names.count(name) + sum(n.startswith(f"{name} #") for n in self.names)
        return f"{name} #{taken + 1}" if taken else name

    @property
    def run_id(self) -> int | None:
        """The session's stored run (None: nothing recorded)."""
        return self.recording.run_id if self.recording is not None else None

    def _record(self, name: str, record: Record) -> None:
        """Record ``record`` in the session's run (begun now if this is its first result). A Ctrl-C
        meanwhile waits until it is recorded, then stops the session."""
        if self.store_problem is not None:
            return
        try:
            if self.recording is None:
                self.recording = Recording.begin(self._open(), kind=KIND, argv=self.argv,
                                                 environment=record.result.environment or None,
                                                 label=self.options.label)
            self.recording.add(workload_result(record.result, name))
        except Exception as e:  # recording is a service to the user; it must not fail their test
            self.store_problem = f"{type(e).__name__}: {e}"
            if self.recording is not None:
                self.recording.crash(e)  # ended failed at the end of the session, not left "running"

    def _open(self, create: bool = True) -> Any:
        if self._store is None:
            # pytest has no --db: a hint names what the plugin reads, $LEVELBENCH_DB
            self._store = open_store(None, create=create, option="LEVELBENCH_DB")
            self.store_location = str(self._store.path)
        return self._store

    def resolve_reference(self) -> None:
        """``--levelbench-compare=REF`` to a run id, before any test runs (and before this session's own
        run exists, so ``latest`` is the latest before it). A usage error when there is no such run."""
        import pytest


        try:
            self.reference = self._open(create=False).resolve(self.options.compare)
        except StoreError as e:
            raise pytest.UsageError(f"--levelbench-compare={self.options.compare}: {e}") from None

    # -- at the end --------------------------------------------------------------------------------
    def finish(self, interrupted: bool) -> None:
        """End the stored run (``interrupted``: Ctrl-C stopped the session), compare with the reference
        run, write the JSON file."""
        self.end_run(interrupted)
        if self.options.compare is not None and not self.options.disabled:
            self._compare()
        if self.options.json_path is not None:
            self._write_json()

    def end_run(self, interrupted: bool) -> None:
        """End the stored run, if one was begun: ``interrupted`` when Ctrl-C stopped the session, else
        as its results say (or ``failed`` when the store failed while recording)."""
        self.interrupted = interrupted
        if self.recording is not None:
            if interrupted and not self.recording.crashed:  # a failed store stays the reason
                self.recording.interrupt()
            self.outcome = self.recording.end()
            if self.outcome.unrecorded:
                self.store_problem = f"the end of run {self.run_id} could not be recorded ({self.outcome.unrecorded})"

    def session_run(self) -> Any:
        """This session as a `Run` (its stored id, or 0 when not saved), with every result."""

        comparisons = [as_comparison(r.result, name) for name, r in zip(self.names, self.records)]
        results = tuple(StoredResult(name, {}, "ok", c, duration=sum(m.total_time for m in c.measurements.values()))
                        for name, c in zip(self.names, comparisons))
        counts: dict[str, int] = {}
        for r in results:
            counts[r.workload] = counts.get(r.workload, 0) + 1
        environment = next((r.result.environment for r in self.records if r.result.environment), {})
        return Run(id=self.run_id or 0, kind=KIND, started=self.started, finished=time.time(),
                   status=RUN_INTERRUPTED if self.interrupted else run_status(results) if results else RUN_OK,
                   argv=tuple(self.argv),
                   git_commit=self._commit(), label=self.options.label, environment=dict(environment),
                   workload_counts=counts, results=results)

    def _commit(self) -> str | None:
        if self._git_commit is None:
            self._git_commit = detect_git_commit() or ""
        return self._git_commit or None

    def _compare(self) -> None:
        if not self.records:
            self.compare_lines = ["not compared: this session measured nothing"]
            return
        current = self.session_run()
        try:
            store = self._open(create=False)
            if self.reference is not None:
                before = store.run(self.reference)
            else:
                before = previous_run(store, current, exclude=self.run_id)
        except StoreError as e:
            self.compare_lines = [f"not compared: {e}"]
            return
        if before is None:
            self.compare_lines = [f"not compared: no earlier {KIND!r} run of these tests in {self.store_location} "
                                  "(save one with --levelbench-save, or name one: --levelbench-compare=REF)"]
            return
        diff = diff_runs(before, current, min_effect=self.options.min_effect)
        after = f"this session (run {self.run_id})" if self.run_id else "this session (not saved)"
        diff = dataclasses.replace(diff, after_title=after)
        self.compare_lines = [line.rstrip() for line in plain(render_diff(diff), width=160).splitlines()]
        if self.options.fail_above is not None and diff.has_regression:
            self.regressed = True
            worst = ", ".join(f"{c.workload} {c.candidate} {c.change:+.1%}" if c.change is not None
                              else f"{c.workload} {c.verdict}" for c in diff.regressions[:3])
            self.compare_lines.append(
                f"FAILED: {len(diff.regressions)} regression(s) against {before.title} "
                f"(--levelbench-compare-fail=median:{self.options.fail_above:.0%}): {worst}")

    def _write_json(self) -> None:
        from pathlib import Path


        path = Path(self.options.json_path or "")
        try:
            if path.exists() and not path.is_file():  # /dev/stdout, a pipe: cannot be replaced
                with open(path, "a", encoding="utf-8") as f:
                    f.write(export_json(self.session_run()))
            else:
                replace_file(path, export_json(self.session_run()))
            self.json_written = str(path)
        except OSError as e:
            self.store_problem = f"--levelbench-json {path}: {e.strerror or e}"

    def close(self) -> None:
        close = getattr(self._store, "close", None)
        if callable(close):
            try:
                close()
            except Exception:  # closing at exit: nothing left to report it to
                pass

    # -- the summary -------------------------------------------------------------------------------
    def summary(self) -> list[str]:
        """One line per result, then where they were recorded, then the comparison."""

        lines = []
        for r in self.records:
            res = r.result
            if hasattr(res, "measurements"):
                ratios = [f"{n}/{res.baseline} {res.ratio(n).estimate:.3g} "
                          f"[{res.ratio(n).lower:.3g} .. {res.ratio(n).upper:.3g}] {res.verdict(n)}"
                          for n in res.names if n != res.baseline]
                own = sorted({f.code for f in res.findings if f.code.startswith("LB3")})
                flags = f"  findings {' '.join(own)}" if own else ""
                lines.append(f"{r.nodeid}: compare {', '.join(ratios) or res.baseline}{flags}")
            else:
                flags = f"  findings {' '.join(sorted({f.code for f in res.findings}))}" if res.findings else ""
                lines.append(f"{r.nodeid}: measure {res.label} median {fmt_time(res.median)} "
                             f"[{fmt_time(res.ci.lower)} .. {fmt_time(res.ci.upper)}], cold start "
                             f"{fmt_time(res.cold_start)}{flags}")
        if self.untimed:
            lines.append(f"{len(self.untimed)} timing test(s) ran once, untimed (--levelbench-disable)")
        if self.run_id is not None:
            label = f", label {self.options.label!r}" if self.options.label else ""
            ended = self.outcome.status if self.outcome is not None else RUN_OK
            status = f" ({ended})" if ended != RUN_OK else ""
            lines.append(f"{len(self.records)} result(s) recorded in {self.store_location} as run {self.run_id}"
                         f"{status}{label}")
        elif self.records and not self.options.save:
            lines.append("not saved: --levelbench-save[=NAME] or --levelbench-autosave records the session as one run")
        if self.json_written:
            lines.append(f"results written to {self.json_written}")
        if self.store_problem:
            lines.append(f"results not recorded: {self.store_problem}")
        return lines + self.compare_lines

