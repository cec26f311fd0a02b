"""What JAX compiled, by name, and why it missed its cache.

`levelbench._frameworks.jax_adapter.watch` keeps durations only; naming the culprit of a recompilation
needs the function name JAX attaches to each event and the explanation JAX can log for each
tracing-cache miss (``jax_explain_cache_misses``).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._frameworks.jax_adapter import COMPILE_EVENT, LOWER_EVENT, TRACE_EVENT


@dataclasses.dataclass(frozen=True)
class Event:
    name: str  # one of TRACE_EVENT, LOWER_EVENT, COMPILE_EVENT
    seconds: float
    function: str


class EventLog:
    """Compile events seen while a `record()` block was open."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    @property
    def compilations(self) -> int:
        return sum(1 for e in self.events if e.name == COMPILE_EVENT)

    @property
    def traces(self) -> int:
        return sum(1 for e in self.events if e.name == TRACE_EVENT)

    @property
    def seconds(self) -> float:
        """Trace + lower + compile seconds reported."""
        return sum(e.seconds for e in self.events)

    def compiled_functions(self) -> list[str]:
        return [e.function for e in self.events if e.name == COMPILE_EVENT]


_active: list[EventLog] = []
_lock = threading.Lock()
_registered = False


def _on_event(event: str, duration: float, **kwargs: Any) -> None:
    if event in (TRACE_EVENT, LOWER_EVENT, COMPILE_EVENT):
        e = Event(event, duration, str(kwargs.get("fun_name", "?")))
        for log in list(_active):
            log.events.append(e)


@contextmanager
def record() -> Iterator[EventLog]:
    """Collect JAX's trace/lower/compile events, with the function each was for."""
    global _registered
    import jax.monitoring  # explain runs only on JAX code: jax is imported already

    with _lock:
        if not _registered:
            jax.monitoring.register_event_duration_secs_listener(_on_event)
            _registered = True
    log = EventLog()
    _active.append(log)
    try:
        yield log
    finally:
        _active.remove(log)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "CACHE MISS" in message:
            self.messages.append(message)


@contextmanager
def cache_miss_explanations() -> Iterator[list[str]]:
    """JAX's own explanation of each tracing-cache miss in the block (names the changed input).

    Turns ``jax_explain_cache_misses`` on for the block and keeps the messages instead of letting
    them reach the user's terminal.
    """
    import jax

    logger = logging.getLogger("jax")
    handler = _Collect()
    was_on = bool(getattr(jax.config, "jax_explain_cache_misses", False))
    propagated = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        jax.config.update("jax_explain_cache_misses", True)
    except (AttributeError, KeyError):  # a JAX without the option: no explanations, same probe
        pass
    try:
        yield handler.messages
    finally:
        try:
            jax.config.update("jax_explain_cache_misses", was_on)
        except (AttributeError, KeyError):
            pass
        logger.removeHandler(handler)
        logger.propagate = propagated
