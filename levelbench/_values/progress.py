"""One line of progress on a terminal's standard error, for work that runs longer than a few seconds.

Shown only when the stream is a terminal (never in a pipe, a file, or a JSON document on standard
output) and only once the work has lasted `AFTER` seconds: a quick call prints nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

AFTER = 3.0


class ProgressLine:
    """Call it with what is being done now; it rewrites one line of ``stream`` in place.

    ``close()`` clears the line, so what is printed after starts on a clean line.
    """

    def __init__(self, prefix: str, stream: TextIO | None = None, after: float = AFTER,
                 clock: Callable[[], float] = time.monotonic, force: bool = False):
        self.stream = stream if stream is not None else sys.stderr
        self.prefix, self.after, self.clock = prefix, after, clock
        self.started = clock()
        self.enabled = force or _is_terminal(self.stream)
        self.shown = False
        self.last = ""

    def __call__(self, what: str) -> None:
        self.last = what
        if not self.enabled or self.clock() - self.started < self.after:
            return
        line = f"{self.prefix} [{self.clock() - self.started:.0f} s] {what}"
        self.stream.write("\r\x1b[2K" + line[:_width() - 1])
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.shown = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a file
        return False


def _width() -> int:
    import shutil

    return shutil.get_terminal_size((100, 24)).columns
