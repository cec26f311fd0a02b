"""A long script's parts, or a large tree's files, checked on several cores at once.

The doctor checks a script of more than ``PART_LINES + HEAD_LINES`` lines in parts (see `_schedule`), one
syntax tree at a time; the parts are independent, so other processes can take some of them, as they can
take some of the files of a directory (shared by size: `_shares`). This
process keeps the first share and starts one worker per other share: a fresh interpreter
(``python -P -m levelbench.doctor._parts``, never a fork, so neither the caller's threads nor its
``__main__`` module come along) that reads its job from a file and writes each part's result as soon as
it has it. A worker that fails or is killed costs only time: the parts it did not deliver are
checked here.

The task is a module-level function, named in the job and imported by the worker; its results must
be small to pickle (the doctor sends `Diagnostic.packed` tuples, not objects).
"""

from __future__ import annotations

import heapq
import importlib
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO, TypeVar

from .._values.settings import child_environment
from .._values.signals import interrupts_held

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


def map_parts(
    task: Callable[[Any, _Item], _Result],
    shared: Any,
    items: Sequence[_Item],
    processes: int,
    weights: Sequence[float] | None = None,
) -> list[_Result]:
    """``[task(shared, item) for item in items]``, on up to ``processes`` processes, this one included.

    ``shared`` (the script's text, say) is sent once to each worker. Items are split into contiguous
    shares of about equal length, or, when ``weights`` (one per item, the work each is expected to take) are
    given, into shares of about equal weight (see `_shares`); this process checks the first share while the
    workers check theirs.
    """
    processes = max(1, min(processes, len(items)))
    if processes == 1:
        return [task(shared, item) for item in items]
    shares = _shares(len(items), processes, weights)
    results: dict[int, _Result] = {}
    workers: list[_Worker | None] = []
    try:
        # A signal while a worker starts (Popen has forked, not yet returned) would leave that worker running,
        # unknown to this process: held until every started worker is on the list, then raised here.
        with interrupts_held() as interrupted:
            for share in shares[1:]:
                workers.append(_Worker.start(task, shared, [(i, items[i]) for i in share]))
        if interrupted:
            raise interrupted[0]
        for i in shares[0]:
            results[i] = task(shared, items[i])
        for worker in workers:
            if worker is not None:
                results.update(worker.results())
    finally:
        for worker in workers:
            if worker is not None:
                worker.stop()
    for i, item in enumerate(items):  # what a failed worker did not deliver
        if i not in results:
            results[i] = task(shared, item)
    return [results[i] for i in range(len(items))]


def _shares(count: int, processes: int, weights: Sequence[float] | None) -> list[list[int]]:
    """``processes`` non-empty shares of ``range(count)`` (``count >= processes``), each in order: contiguous runs
    of about the same length; or, with ``weights``, shares of about the same weight: the heaviest item first, each
    to the share with the least weight so far (and, of those, the fewest items)."""
    if weights is None:
        bounds = [round(k * count / processes) for k in range(processes + 1)]
        return [list(range(bounds[k], bounds[k + 1])) for k in range(processes)]
    shares: list[list[int]] = [[] for _ in range(processes)]
    loads = [(0.0, 0, k) for k in range(processes)]  # (weight, items, share)
    for i in sorted(range(count), key=lambda i: -weights[i]):
        load, items, k = heapq.heappop(loads)
        shares[k].append(i)
        heapq.heappush(loads, (load + weights[i], items + 1, k))
    return [sorted(share) for share in shares]


class _Worker:
    """One worker process: its job in a temporary file as standard input, its results in another."""

    def __init__(self, process: subprocess.Popen[bytes], output: BinaryIO) -> None:
        self.process = process
        self.output = output

    @classmethod
    def start(cls, task: Callable[..., Any], shared: Any, items: list[tuple[int, Any]]) -> _Worker | None:
        job = (task.__module__, task.__qualname__, shared, items)
        output = tempfile.TemporaryFile()
        try:
            with tempfile.TemporaryFile() as source:
                pickle.dump(job, source, protocol=pickle.HIGHEST_PROTOCOL)
                source.seek(0)
                process = subprocess.Popen(
                    # -P: not the working directory first on sys.path (a `levelbench` folder there is not this one)
                    [sys.executable, "-P", "-m", __name__], stdin=source, stdout=output, stderr=subprocess.DEVNULL,
                    env=child_environment(),
                    start_new_session=True,  # Ctrl-C reaches this process only: it stops its workers itself
                )
        except (OSError, pickle.PicklingError):  # no interpreter to start, or no room: this process does it all
            output.close()
            return None
        return cls(process, output)

    def results(self) -> dict[int, Any]:
        """What the worker delivered (after it ended): the results read in full, by item index."""
        self.process.wait()
        found: dict[int, Any] = {}
        self.output.seek(0)
        while True:
            try:
                i, result = pickle.load(self.output)
            except (EOFError, pickle.UnpicklingError, ValueError, TypeError):  # the end, or a result cut short
                return found
            found[i] = result

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.output.close()


def _serve(source: BinaryIO, sink: BinaryIO) -> None:
    module, name, shared, items = pickle.load(source)
    task = getattr(importlib.import_module(module), name)
    for i, item in items:
        pickle.dump((i, task(shared, item)), sink, protocol=pickle.HIGHEST_PROTOCOL)
        sink.flush()


if __name__ == "__main__":
    _serve(sys.stdin.buffer, sys.stdout.buffer)
