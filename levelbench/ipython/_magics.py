"""``%lbtimeit``, ``%lbtime``, ``%lbcompare`` and ``%lbdoctor``: levelbench where notebooks already time things.

Each magic is a library call plus rendering: ``%lbtimeit`` is `levelbench.measure`, ``%lbcompare``
is `levelbench.compare`, ``%lbtime`` one cold call, ``%lbdoctor`` the static doctor.
"""

from __future__ import annotations

from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import (
    Magics,
    line_cell_magic,
    line_magic,
    magics_class,
    needs_local_scope,
    no_var_expand,
)

from . import _options as o
from ._candidates import split_candidates
from ._display import show, timeit_line
from ._statement import Call, StatementError, namespace, prepare_call
from .._api import compare, measure
from .._measuring.candidate import Builder, Candidate
from .._measuring.parity import ComparisonError
from .._measuring.sampler import cold_call
from ._display import register_formatters
from ._doctor import lint_session

_TIMEIT_OPTIONS = (o.NUMBER, o.REPEAT, o.QUIET, o.VERBOSE, o.OUTPUT, o.BUDGET, o.CI)
_TIME_OPTIONS = (o.QUIET, o.OUTPUT)
_COMPARE_OPTIONS = (o.QUIET, o.OUTPUT, o.BUDGET, o.CI, o.BASELINE, o.NO_STRICT, o.ISOLATE)
_MEASURE_PARAMETERS = frozenset({"label", "budget", "rel_ci", "target_sample_time", "min_samples", "max_samples",
                                 "number", "flops", "count_flops", "timer", "environment"})


@magics_class
class LevelbenchMagics(Magics):
    """The magics ``%load_ext levelbench`` registers."""

    @no_var_expand  # like %timeit: `{...}` and `$x` are the statement's own Python
    @needs_local_scope
    @line_cell_magic
    def lbtimeit(self, line: str = "", cell: str | None = None, local_ns: dict | None = None) -> Any:
        """Time a statement like %timeit, correctly for JAX and PyTorch: `levelbench.measure`.

        Usage::

          %lbtimeit [-n N] [-r R] [-q] [-v] [-o] [--budget S] [--ci F] statement
          %%lbtimeit [options] [setup code]
          statement(s)

        ``f(a, b)`` is timed as ``measure(f, a, b)``: ``f`` and its arguments are evaluated once,
        a jitted ``f`` has its trace / lower / compile timed apart from the steady state, and every
        call waits for its result. Any other expression is evaluated on every call, as %timeit does
        (so ``%lbtimeit lambda: f(x)`` times creating a lambda, and says so: LB001). It prints one
        %timeit-style line (steady median +- its 95% CI half-width, samples, loops, compile time)
        and a line per self-check that failed; ``-v`` prints the full report: the first call (and
        compile) on its own, the evidence and the fix of each finding.

        Options:
          -n N        calls per sample, %timeit's loops (default: calibrated so a sample lasts ~10 ms)
          -r R        exactly R samples, %timeit's repeats (default: at least 5, more until the CI
                      is tight or the budget is spent)
          -q          print nothing
          -v          print the full report
          -o          return the `levelbench.Measurement`; it also has %timeit's result attributes
                      (loops, repeat, best, worst, all_runs, timings, average, stdev, compile_time)
          --budget S  seconds of sampling before giving up on the CI target (default 2)
          --ci F      stop once the median's 95% CI is within +-F of it (default 0.01)
        """
        opts, rest = self._options(line, _TIMEIT_OPTIONS, "%lbtimeit")
        setup, source = ("", rest) if cell is None else (rest, cell)
        call = self._call(source, setup, local_ns, "%lbtimeit")

        kwargs: dict[str, Any] = {"budget": opts.get("budget", o.DEFAULT_BUDGET), "rel_ci": opts.get("rel_ci", 0.01),
                                  "number": opts.get("number")}
        if "repeat" in opts:  # %timeit's -r: that many samples, no more, no fewer
            kwargs.update(min_samples=opts["repeat"], max_samples=opts["repeat"])
        if set(call.kwargs) & _MEASURE_PARAMETERS:
            # `f(x, number=3)`: a keyword measure would take for itself goes to f through a partial
            from functools import partial

            call = Call(partial(call.fn, **call.kwargs), call.args, {}, call.label)
        m = measure(call.fn, *call.args, label=call.label, **kwargs, **call.kwargs)
        if opts.get("verbose"):
            show(self.shell, m, width=100)
        elif not opts.get("quiet"):
            print(timeit_line(m))
        return m if opts.get("output") else None

    @no_var_expand  # like %timeit: `{...}` and `$x` are the statement's own Python
    @needs_local_scope
    @line_cell_magic
    def lbtime(self, line: str = "", cell: str | None = None, local_ns: dict | None = None) -> Any:
        """Time one cold call like %time, waiting for the result and naming the compile share.

        Usage::

          %lbtime [-q] [-o] statement
          %%lbtime [-q] [-o]
          statement(s)

        The first call of a jitted function is mostly tracing and compiling: %lbtime says how much,
        from JAX's own compile events. Use %lbtimeit for the steady state. ``-o`` returns a
        `ColdCall` (wall, cpu, compilations, compile_time, findings).
        """
        opts, rest = self._options(line, _TIME_OPTIONS, "%lbtime")
        if cell is not None and rest.strip():
            raise UsageError(f"%%lbtime takes only options on its first line, got {rest.strip()!r}")
        call = self._call(rest if cell is None else cell, "", local_ns, "%lbtime")

        cold = cold_call(call.fn, call.args, call.kwargs, call.label)
        if not opts.get("quiet"):
            show(self.shell, cold)
        return cold if opts.get("output") else None

    @no_var_expand  # like %timeit: `{...}` and `$x` are the statement's own Python
    @needs_local_scope
    @line_cell_magic
    def lbcompare(self, line: str = "", cell: str | None = None, local_ns: dict | None = None) -> Any:
        """Compare implementations side by side: `levelbench.compare`.

        Usage::

          %lbcompare [options] jax=f(x) torch=g(xt) [numpy=h(xn)]
          %%lbcompare [options]
          jax = f(x)
          torch = g(xt)
          %lbcompare --isolate numpy=bench.py:numpy_dot jax=bench.py:jax_dot

        Inputs are checked alike (shape, dtype), outputs checked equal, then the candidates are
        timed interleaved; the table gives each one's cold start, steady median and ratio to the
        baseline (the first, or --baseline) with its 95% CI and a verdict. In this kernel the
        frameworks share one process: levelbench waits for their helper threads before each
        candidate's turn, and reports how far plain back-to-back timing would be off (LB305).

        Options:
          --baseline NAME  what the ratios are relative to (default: the first candidate)
          --budget S       seconds of interleaved sampling (default 5)
          --ci F           stop once every ratio's CI is within +-F (default 0.02)
          --no-strict      time candidates whose inputs or outputs differ, reporting it, instead of refusing
          --isolate        each candidate is a builder, FILE.py:NAME or module:function returning (fn, args),
                           built and timed in a worker process of its own
          -q               print nothing
          -o               return the `levelbench.Comparison`
        """
        opts, rest = self._options(line, _COMPARE_OPTIONS, "%lbcompare")
        text = rest if cell is None else f"{rest}\n{cell}"
        try:
            pairs = split_candidates(text)
        except StatementError as e:
            raise UsageError(f"%lbcompare: {e}") from None

        candidates: dict[str, Candidate | Builder] = {}
        if opts.get("isolate"):
            candidates = {name: Builder(expr.strip()) for name, expr in pairs}
        else:
            ns = namespace(self.shell.user_ns, local_ns, "")
            for name, expr in pairs:
                call = self._prepared(expr, ns, f"candidate {name!r}")
                candidates[name] = Candidate(call.fn, call.args, call.kwargs, note=call.label)
        baseline = opts.get("baseline")
        if baseline is not None and baseline not in candidates:
            raise UsageError(f"%lbcompare: --baseline {baseline} is not a candidate; the candidates are "
                             f"{', '.join(candidates)}")
        try:
            c = compare(candidates, baseline=baseline, strict=not opts.get("no_strict"),
                        budget=opts.get("budget", o.DEFAULT_COMPARE_BUDGET), rel_ci=opts.get("rel_ci", 0.02),
                        isolate=bool(opts.get("isolate")))
        except ComparisonError as e:
            raise UsageError(f"%lbcompare refused to compare: {e}\n(add --no-strict to time them anyway, "
                             "with the difference reported as a finding)") from None
        except LookupError as e:  # a builder that names no file or function
            raise UsageError(f"%lbcompare --isolate: {e}") from None
        except RuntimeError as e:  # a builder that failed in its worker
            if not opts.get("isolate"):
                raise
            raise UsageError(f"%lbcompare --isolate: {e}") from None
        if not opts.get("quiet"):
            show(self.shell, c, width=140)
        return c if opts.get("output") else None

    @line_magic
    def lbdoctor(self, line: str = "") -> Any:
        """Lint the cells executed so far in this session with the static doctor.

        Usage::

          %lbdoctor [-o]

        Reads the code of every cell run so far (``In``), as IPython executed it, and reports the
        patterns that make JAX slow (a Python loop unrolled under jit, jit re-created per call,
        timing a lambda, ...). ``-o`` returns the findings.
        """
        opts, rest = self._options(line, (o.OUTPUT,), "%lbdoctor")
        if rest.strip():
            raise UsageError(f"%lbdoctor takes no arguments besides -o, got {rest.strip()!r}")

        report = lint_session(self.shell)
        show(self.shell, report)
        return report.findings if opts.get("output") else None

    # -- shared -----------------------------------------------------------------------------
    @staticmethod
    def _options(line: str, accepted: tuple[o.Option, ...], magic: str) -> tuple[dict[str, Any], str]:
        try:
            return o.split_options(line, accepted, magic)
        except o.OptionError as e:
            raise UsageError(str(e)) from None

    def _call(self, source: str, setup: str, local_ns: dict | None, magic: str) -> Call:
        transform = self.shell.transform_cell
        try:
            ns = namespace(self.shell.user_ns, local_ns, transform(setup) if setup.strip() else "")
        except StatementError as e:
            raise UsageError(f"{magic}: {e}") from None
        return self._prepared(transform(source) if source.strip() else source, ns, "the statement", magic)

    @staticmethod
    def _prepared(source: str, ns: dict, what: str, magic: str = "%lbcompare") -> Call:
        try:
            return prepare_call(source, ns, what, magic)
        except StatementError as e:
            raise UsageError(f"{magic}: {e}") from None


def load(shell: Any) -> None:
    shell.register_magics(LevelbenchMagics)
    register_formatters(shell)
