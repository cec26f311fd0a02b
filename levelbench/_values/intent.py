"""When a benchmark says that it times compilation: one policy for the static doctor and ``doctor --run``.

A timing that holds a first call (LB103) or a recompile (LB111, LB117) measures compilation. Where the
script's own words say that is what it means to measure, the compile is the figure, not a mistake:
``# compile time`` above ``%time f(x)``, ``%time f(x)  # measure compilation time``,
``first_call = time.perf_counter() - t0``, ``print("jit time", ...)``. Both doctors look for those words
on the same lines (`lines_to_read`) with the same words (`says_it_times_compilation`).

The words: ``compile``, ``compilation``, ``compiling``, ``jit time``, ``first call``/``first run``/``first execution``,
``tracing time``; not ``compiled`` (``# compiled version`` names what a warm call runs) nor a line
that says the compilation is left out (``# time it without compilation``, ``after compiling``).

Code that counts a function's traces builds its retraces on purpose, to see them: a test of a trace
guard (``@chex.assert_max_traces(3)`` on a def redefined per call) is not a mistake in the code
(`counts_traces`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

COMPILATION_WORDS = re.compile(r"(?<![a-z])(compil(e|ation|ing)|jit[\s_-]*time|first[\s_-]*(call|run|execution)|"
                               r"trac(e|ing)[\s_-]*time)(?![a-z])", re.I)
"""The script's words for a timing of compilation on purpose (a comment, a name, a printed label)."""
LEFT_OUT_WORDS = re.compile(r"\b(without|excluding|exclude|no|not|after|minus)\b.{0,40}?(?<![a-z])compil", re.I)
"""Words saying the compilation is left out of the timing: ``without compilation``, ``after compiling``."""
CELL_MARKER = "# %%"
TRACE_COUNTER_WORDS = re.compile(r"(assert|count|max|num|n)_?(max_?)?traces?(?![a-z])|traces?_?(count|counter)", re.I)
"""A wrapper's name that says it counts or bounds a function's traces: ``assert_max_traces``, ``count_traces``,
``trace_counter``; not ``trace`` alone (``jax.profiler.trace`` records, it does not count)."""


JIT_VERSION_WORDS = re.compile(r"(?<![a-z])jit[\s_-]*time(?![a-z])", re.I)
"""``jit time``: the time of the first, compiling call of a timing of one call (``print("jit time", t)``), but the
time of the jitted version of a timing that repeats its call (``jit_time = end - start`` after a loop of 100 calls,
beside ``python_time``): the words say compilation only where one call is timed."""


def says_it_times_compilation(text: str, *, repeated: bool = False) -> bool:
    """Whether ``text`` (one line) says the timing on it measures compilation on purpose. ``repeated``: the
    timing runs its call many times, where ``jit time`` names the jitted version, not its compile.

    !!! Example
        ```python
        says_it_times_compilation("# compile time")                       # True
        says_it_times_compilation("t_first_call = time.time() - t0")       # True
        says_it_times_compilation("# compiled version")                   # False
        says_it_times_compilation("# now time it without compilation")    # False
        says_it_times_compilation("jit_time = end - start", repeated=True)  # False
        ```
    """
    if LEFT_OUT_WORDS.search(text):
        return False
    if repeated:
        text = JIT_VERSION_WORDS.sub(" ", text)
    return bool(COMPILATION_WORDS.search(text))


def counts_traces(wrapper_name: str) -> bool:
    """Whether a decorator or wrapper named ``wrapper_name`` (dotted or not) counts the traces of what it wraps.

    !!! Example
        ```python
        counts_traces("chex.assert_max_traces")   # True
        counts_traces("count_traces")             # True
        counts_traces("jax.profiler.trace")       # False
        ```
    """
    return bool(TRACE_COUNTER_WORDS.search(wrapper_name.rsplit(".", 1)[-1]))


RUN_WORDS = re.compile(r"(?<![a-z])(first|runs?|running|run[\s_-]*time|execut\w*|exec|total|integration|inference"
                       r"|step|steps)(?![a-z])|\+", re.I)
"""Words saying a timing holds the run as well: ``Compile+run time``, ``first call``, ``total``."""


COMPILES_WORDS = re.compile(r"(?<![a-z])compil(e|ed|es|ation|ing)(?![a-z])", re.I)
"""Words saying a run compiles what it calls: ``# make sure the model is compiled``, ``# compile first``."""


def says_it_compiles(text: str) -> bool:
    """Whether ``text`` (one comment line above an untimed run) says the run compiles what it calls, so that the
    callable is a compiled program: ``# make sure the model is compiled`` (feedbax's notebook 15, case 480), not a
    line that says the compilation is left out (``# run without compiling``).

    !!! Example
        ```python
        says_it_compiles("# make sure the model is compiled")  # True
        says_it_compiles("# warm up")                          # False
        says_it_compiles("# run it without compiling")         # False
        ```
    """
    return not LEFT_OUT_WORDS.search(text) and bool(COMPILES_WORDS.search(text))


def says_it_times_compilation_alone(text: str) -> bool:
    """Whether ``text`` says the timing on it measures the compilation and nothing else: ``compile_time = ...``,
    ``# tracing time``; not ``Compile+run time`` nor ``first call`` (the first run, compiled and run).

    !!! Example
        ```python
        says_it_times_compilation_alone("compile_time = timeit.timeit(solve_, number=1)")  # True
        says_it_times_compilation_alone('print("Compile+run time", t)')                   # False
        ```
    """
    return says_it_times_compilation(text) and not RUN_WORDS.search(text)


def says_it_leaves_compilation_out(text: str) -> bool:
    """Whether ``text`` says the timing on it runs without compilation (``# time it after compiling``)."""
    return bool(LEFT_OUT_WORDS.search(text))


# A heading the script prints right before a timing's own output (``print("jax jit compilation:")`` over ``%time
# _ = f_jit(rs)``, case 482): it names the figure printed under it, as a comment above the timing does.
_PRINTED_LABEL = re.compile(r"""print\(\s*(?P<q>["'])[^"'{}]*(?P=q)\s*\)""")


def lines_to_read(line_text: Callable[[int], str], first: int, last: int, more: Iterable[int] = ()) -> list[int]:
    """The lines whose words say what a timing from line ``first`` to ``last`` means: the comment lines and printed
    headings (``print("jax jit compilation:")``) right above it (up to its cell's start), its own lines (at most 15: the statements timed) and ``more`` (where
    the script subtracts the reads)."""
    found = []
    above = first - 1
    while above > 0 and (((text := line_text(above).strip()).startswith("#") and not text.startswith(CELL_MARKER))
                         or _PRINTED_LABEL.fullmatch(text)):
        found.append(above)
        above -= 1
    found.extend(range(first, min(last, first + 14) + 1))
    found.extend(more)
    return sorted(set(found))


def compilation_meant(line_text: Callable[[int], str], first: int, last: int, more: Iterable[int] = (), *,
                      repeated: bool = False) -> str:
    """The first line (stripped) of `lines_to_read` that says the timing measures compilation, or "".
    ``repeated``: the timing runs its call many times (see `says_it_times_compilation`)."""
    for number in lines_to_read(line_text, first, last, more):
        text = line_text(number).strip()
        if says_it_times_compilation(text, repeated=repeated):
            return text
    return ""


def compilation_alone_meant(line_text: Callable[[int], str], first: int, last: int, more: Iterable[int] = ()) -> str:
    """The first line (stripped) of `lines_to_read` that says the timing measures compilation alone, or "" (also ""
    when another of those lines says the run is in it)."""
    lines = [line_text(n).strip() for n in lines_to_read(line_text, first, last, more)]
    if any(RUN_WORDS.search(text) and says_it_times_compilation(text) for text in lines):
        return ""
    return next((text for text in lines if says_it_times_compilation_alone(text)), "")
