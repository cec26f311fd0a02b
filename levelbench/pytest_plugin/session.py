"""What the fixture measured in one pytest process: the end-of-session summary and the results store."""

from __future__ import annotations

from typing import Any

from .fixture import Record


class SessionResults:
    """Collects every `Record` of the session and saves each to the results store, if there is one.

    The store (``levelbench.store``, location from ``LEVELBENCH_DB``) is optional: without it
    results are only summarised. A store that fails to open or write is reported once in the
    summary and never fails a test.
    """

    def __init__(self) -> None:
        self.records: list[Record] = []
        self.saved = 0
        self.store_location: str | None = None
        self.store_problem: str | None = None
        self._store: Any = None

    def add(self, record: Record) -> None:
        self.records.append(record)
        self._save(record)

    def _save(self, record: Record) -> None:
        if self.store_problem is not None:
            return
        try:
            store = self._open()
            if store is None:
                return
            res = record.result
            # The label is the stored workload name that history and diffs match runs by: keep it stable.
            if hasattr(res, "measurements"):
                store.save_comparison(res, label=f"{record.nodeid}::{res.title or '+'.join(res.names)}")
            else:
                store.save_measurement(res, label=f"{record.nodeid}::{res.label}")
            self.saved += 1
        except Exception as e:  # recording is a service to the user; it must not fail their test
            self.store_problem = f"{type(e).__name__}: {e}"

    def _open(self) -> Any:
        if self._store is None:
            from ..store import open_store

            self._store = open_store(None)
            self.store_location = str(getattr(self._store, "path", "") or "") or None
        return self._store

    def close(self) -> None:
        close = getattr(self._store, "close", None)
        if callable(close):
            try:
                close()
            except Exception:  # closing at exit: nothing left to report it to
                pass

    def summary(self) -> list[str]:
        """One line per result, then where they were recorded."""
        from .._values.units import fmt_time

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
        if self.saved:
            where = f" in {self.store_location}" if self.store_location else ""
            lines.append(f"{self.saved} result(s) recorded{where}")
        if self.store_problem:
            lines.append(f"results not recorded: {self.store_problem}")
        return lines
