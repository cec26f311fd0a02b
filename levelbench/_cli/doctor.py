"""``levelbench doctor``: a thin command over `lint_paths` and the renderers."""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from typing import TextIO

import click

from .._auditing import DEFAULT_TIMEOUT, audit_script
from .._values.catalogue import CATALOGUE, RULES, rule_for
from .._values.findings import Severity
from ..doctor import (
    ConfigChoice, ConfigError, Options, Settings, describe, DoctorReport, HEAD_LINES, PART_LINES, lint_paths,
    selected_codes, FixReport, fix_failed, fix_paths, fixing_codes, plan_fixes, write_fixes, DEFAULT_MAX_BYTES)
from .._rendering.doctor_machine import MACHINE_FORMATS
from .._rendering.doctor_text import render_text
from .._rendering.script_audit import render_audit_json, render_audit_text
from .._results.script_audit import ScriptAudit
from .common import (FINDINGS, INTERRUPTED, OK, USAGE, check_output, db_option, fail, output_option, stop_on_signals,
                     write_output)

FORMATS = ["text", "concise", "json", "json-lines", "sarif", "github"]


@click.command(
    "doctor",
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True, path_type=str))
@click.option(
    "--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
    help="text: findings with the source line and a caret; concise: one line each; json; json-lines: one "
         "JSON object per finding; sarif: SARIF 2.1.0; github: GitHub Actions annotations.",
)
@click.option(
    "--select", multiple=True, metavar="CODES", help="Only these rules: codes or prefixes, comma-separated (LB10,LB111)."
)
@click.option("--ignore", multiple=True, metavar="CODES", help="Skip these rules: codes or prefixes, comma-separated.")
@click.option(
    "--fail-on", type=click.Choice(["info", "warning", "error"]), default=None,
    help="Exit with status 1 when a finding of this severity or worse remains "
         "[default: the configuration's fail-on, else warning].",
)
@click.option("--explain", "explain_code", metavar="CODE",
              help="Explain any finding code (LB0xx measure, LB1xx doctor, LB2xx explain, LB3xx compare), "
                   "with the fix as code, and exit.")
@click.option("--list-rules", is_flag=True, help="List the doctor's rules (LB1xx) and exit; --list-codes for all.")
@click.option("--list-codes", is_flag=True, help="List every finding code of every family and exit.")
@click.option("--show-fixes", is_flag=True, help="Print the suggested fix (as code) under each finding.")
@click.option("--fix", is_flag=True, help="Apply the safe fixes in place, then report what is left.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff instead of writing them.")
@click.option("--unsafe-fixes", is_flag=True,
              help="With --fix/--diff, also apply fixes that change what the code computes (LB107, LB108).")
@click.option("--fix-only", multiple=True, metavar="CODES",
              help="Fix only these rules (codes or prefixes, comma-separated); implies --fix unless --diff.")
@click.option("--exclude", multiple=True, metavar="GLOB",
              help="Skip files and directories matching GLOB (repeatable); replaces the configuration's exclude.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Read [tool.levelbench.doctor] from this TOML file for every input, instead of the nearest "
                   "pyproject.toml above each one.")
@click.option("--no-config", is_flag=True, help="Read no configuration file: defaults and the command line only.")
@click.option("--show-settings", is_flag=True,
              help="Print the settings each PATH gets (configuration file, rules, fail-on) and exit.")
@click.option("-v", "--verbose", is_flag=True, help="Say on stderr which configuration file applied to which files.")
@click.option(
    "--max-bytes", type=click.IntRange(min=1), default=DEFAULT_MAX_BYTES, show_default=True,
    help="Skip (and report) files larger than this.",
)
@click.option(
    "--stdin-filename", default="<stdin>", show_default=True, help="Name for standard input (.ipynb: a notebook)."
)
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), default=None, metavar="N",
    help=f"Processes that share the work: the parts of a long script (over {PART_LINES + HEAD_LINES:,} lines), and "
    "the files of a large tree; the findings are the same for any N [default: one per core].",
)
@click.option("--color/--no-color", default=None, help="Force colour on or off (default: when writing to a terminal).")
@click.option("--run", "run_script", metavar="SCRIPT.py|NB.ipynb", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="RUN the script (this executes its code, as `python SCRIPT.py ARGS` would; PATHS after `--` are "
                   "its ARGS; a notebook, or a .py with %timeit and other magics, runs cell by cell in IPython) "
                   "and report what each of its clocks measured: compilation and work still running "
                   "inside each timed interval, samples, findings with measured evidence. --format text or json.")
@click.option("--timeout", type=click.FloatRange(min=0), default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
              help="With --run: stop the script this long after its first line and report what ran before "
                   "(0: no limit).")
@click.option("-q", "--quiet", is_flag=True, help="With --run: capture the script's output instead of showing it.")
@db_option
@click.option("--no-save", is_flag=True,
              help="With --run: do not record the audit in the results database (recorded by default, as a run of "
                   "kind doctor-run that `levelbench history` and `levelbench report` show).")
@output_option(help="Write the report (in --format) to PATH, whole or not at all (default or '-': standard output).")
@click.pass_context
def doctor_command(
    ctx: click.Context,
    paths: tuple[str, ...],
    output_format: str,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fail_on: str,
    explain_code: str | None,
    list_rules: bool,
    list_codes: bool,
    show_fixes: bool,
    fix: bool,
    diff: bool,
    unsafe_fixes: bool,
    fix_only: tuple[str, ...],
    exclude: tuple[str, ...],
    config_file: str | None,
    no_config: bool,
    show_settings: bool,
    verbose: bool,
    max_bytes: int,
    stdin_filename: str,
    jobs: int | None,
    color: bool | None,
    run_script: str | None,
    timeout: float,
    quiet: bool,
    db: str | None,
    no_save: bool,
    output: str | None,
) -> None:
    """Find benchmarking and JAX-performance mistakes in scripts and notebooks, without running them.

    PATHS are Python files, Jupyter notebooks, directories (searched for *.py and *.ipynb, skipping
    hidden directories and virtual environments), or - for standard input.

    Settings come from [tool.levelbench.doctor] in the nearest pyproject.toml above each file
    (select, ignore, per-file-ignores, fail-on, exclude); the options here override it. Silence a
    line with `# noqa: LB104` (or `# levelbench: ignore[LB104]`), a file with
    `# levelbench: ignore-file[LB104]`.

    \b
    Examples:
      levelbench doctor bench.py notebooks/
      levelbench doctor --format sarif src/ > doctor.sarif
      levelbench doctor --format github .           # annotations in a GitHub Actions job
      levelbench doctor --select LB101,LB102 --fail-on error bench.ipynb
      levelbench doctor --explain LB106
      levelbench doctor --diff bench.ipynb          # what --fix would change
      levelbench doctor --fix --unsafe-fixes bench.py

    With --run SCRIPT.py [-- ARGS...] it runs the script (or a notebook, cell by cell) instead (this
    executes the code) and audits its own timing, interval by interval (`levelbench doctor --run
    bench.py -- --n 1000`), and records the audit in the results database (--db; --no-save: not)
    for `levelbench history` and `report`.

    Exit status: 0 clean, 1 findings at or above --fail-on (with --diff: also when there is
    something to fix; with --run: also when the script failed or was stopped), 2 usage error, a
    configuration file that cannot be used, or (with --run) a results database that could not take
    the audit, 130 interrupted.
    """
    if run_script is None:
        given = [name for name in ("timeout", "quiet", "db", "no_save")
                 if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]
        if given:
            option = "--" + given[0].replace("_", "-")
            raise click.UsageError(f"{option} is for --run SCRIPT.py: add --run, or drop {option}")
    elif fix or diff or fix_only or show_settings:
        raise click.UsageError("--run runs a script and reports its timing; --fix, --diff, --fix-only and "
                               "--show-settings read files without running them: give one or the other")
    else:
        _run(ctx, run_script, paths, output_format=output_format, timeout=timeout, quiet=quiet,
             fail_on=fail_on, output=output, db=None if no_save else (db or ""))
        return
    if output and output != "-":
        if fix or diff or fix_only:
            fail("levelbench doctor: -o/--output writes the report; with --fix or --diff the report and the "
                 "diff go to the terminal: drop -o, or run the report without --fix/--diff")
        check_output(output, "levelbench doctor -o")
    if explain_code is not None:
        try:
            click.echo(rule_for(explain_code).explain())
        except KeyError as e:
            raise click.BadParameter(str(e.args[0]), param_hint="--explain") from None
        return
    if list_rules or list_codes:
        for rule in (CATALOGUE if list_codes else RULES).values():
            click.echo(f"{rule.code}  {rule.severity.name.lower():<8} {rule.name:<28} {rule.summary}")
        return
    if not paths:
        raise click.UsageError("no PATH given: expected files, notebooks, directories, or - for standard input")
    if config_file is not None and no_config:
        raise click.UsageError("--config and --no-config contradict each other: give one of them")
    try:
        selected_codes(select, ignore)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--select/--ignore") from None
    if fix_only:
        try:
            fixing_codes(fix_only)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--fix-only") from None
    config: ConfigChoice = False if no_config else (config_file if config_file is not None else True)
    choices = dict(select=select, ignore=ignore, fail_on=fail_on, exclude=exclude, config=config)
    try:
        with stop_on_signals():
            if show_settings:
                _show_settings(paths, Options.of(**choices), stdin_filename)
                return
            if fix or diff or fix_only:
                fixed = fix_paths(
                    paths, fix_only=fix_only or None, unsafe=unsafe_fixes, max_bytes=max_bytes,
                    stdin_name=stdin_filename, jobs=jobs, **choices,
                )
            else:
                # Not fixing: no finding's edits are read (the fix as text is).
                report = lint_paths(
                    paths, max_bytes=max_bytes, stdin_name=stdin_filename, jobs=jobs, edits=False, **choices
                )
    except ConfigError as e:
        fail(str(e))
    except KeyboardInterrupt as e:  # Ctrl-C, SIGTERM or SIGHUP while reading: the workers are stopped already
        fail(f"levelbench doctor: interrupted ({str(e) or 'Ctrl-C'}) before anything was reported or changed", INTERRUPTED)
    if fix or diff or fix_only:
        with stop_on_signals():  # SIGTERM while writing stops between files, as Ctrl-C does
            pending, unwritten = _apply(fixed, paths, diff=diff, stdin_name=stdin_filename if "-" in paths else None)
        fixed = fixed.as_written(unwritten)
        report = fixed.remaining
        if verbose:
            _say_configs(report)
        if not diff:
            to_stderr = "-" in paths  # stdout holds the fixed source
            _render(report, output_format, show_fixes, color, out=sys.stderr if to_stderr else sys.stdout)
        click.echo(_fix_summary(fixed, diff=diff, fix_only=fix_only, unsafe=unsafe_fixes, unwritten=unwritten), err=True)
        ctx.exit(FINDINGS if fix_failed(report, diff=diff, changed=pending, unwritten=unwritten) else OK)
    if verbose:
        _say_configs(report)
    if output and output != "-":
        buffer = io.StringIO()
        _render(report, output_format, show_fixes, False, out=buffer)
        write_output(output, buffer.getvalue(), "levelbench doctor -o")
    else:
        _render(report, output_format, show_fixes, color, out=sys.stdout)
    ctx.exit(FINDINGS if report.failing() else OK)


def _run(ctx: click.Context, script: str, args: tuple[str, ...], *, output_format: str, timeout: float, quiet: bool,
         fail_on: str | None, output: str | None, db: str | None) -> None:
    """``--run``: the script audited in a child process, its report rendered, then recorded in the results
    database ``db`` ("": the default one; None: ``--no-save``); the exit status says how it went."""
    if output_format not in ("text", "json"):
        raise click.BadParameter(f"--run reports as text or json, got {output_format!r}", param_hint="--format")
    to_file = bool(output and output != "-")
    if to_file:
        check_output(output, "levelbench doctor --run -o")
    how = "captured" if quiet else "stderr" if output_format == "json" and not to_file else "shown"
    try:
        with stop_on_signals():
            audit = audit_script(script, args, timeout=timeout, output=how)
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    report = render_audit_json(audit) + "\n" if output_format == "json" else render_audit_text(audit)
    if to_file:
        write_output(output, report, "levelbench doctor --run -o")
    else:
        click.echo(report, nl=False)
    saved = _save(audit, db, quiet=quiet) if db is not None else True  # after the report: a bad database never loses it
    if audit.status == "interrupted":
        ctx.exit(INTERRUPTED)
    threshold = Severity.parse(fail_on or "warning")
    failed = audit.status != "finished" or any(f.severity >= threshold for f in audit.findings)
    ctx.exit(USAGE if not saved else FINDINGS if failed else OK)


def _save(audit: ScriptAudit, db: str, *, quiet: bool) -> bool:
    """Record ``audit`` in the database at ``db`` ("": the default), saying where on stderr (not with -q);
    what went wrong is said once, -q or not. Whether it was recorded whole."""
    # lazy: the store (sqlite, the environment) loads only where an audit is saved, not for every doctor
    from .._recording import record_audit
    # lazy: as above
    from ..store import StoreError, open_store

    try:
        with stop_on_signals():
            store = open_store(db or None)
            try:
                outcome = record_audit(store, audit, argv=sys.argv[1:])
            finally:
                store.close()
    except StoreError as e:
        click.echo(f"levelbench doctor: the audit above was not recorded: {e}", err=True)
        return False
    except KeyboardInterrupt as e:
        click.echo(f"levelbench doctor: interrupted ({str(e) or 'Ctrl-C'}) while recording the audit above", err=True)
        return False
    if outcome.crashed or outcome.unrecorded:
        why = outcome.error if outcome.crashed else f"its end could not be recorded ({outcome.unrecorded})"
        click.echo(f"levelbench doctor: run {outcome.run_id} in {outcome.store_path} is incomplete: {why}", err=True)
        return False
    if not quiet:
        click.echo(f"levelbench doctor: recorded as run {outcome.run_id} ({outcome.status}) in {outcome.store_path}",
                   err=True)
    return True


def _show_settings(paths: tuple[str, ...], options: Options, stdin_filename: str) -> None:
    settings = Settings(options)
    for path in paths:
        name = stdin_filename if path == "-" else path
        applied = settings.for_file(name)
        click.echo(f"{name}:")
        for line in describe(applied.config, applied, options):
            click.echo(f"  {line}")


def _say_configs(report: DoctorReport) -> None:
    """``levelbench doctor: /repo/pyproject.toml [tool.levelbench.doctor] applies to 3 files``, per file used."""
    by_config: dict[str, int] = {}
    for _, config in report.configs:
        by_config[config] = by_config.get(config, 0) + 1
    for config, count in by_config.items():
        click.echo(f"levelbench doctor: {config} [tool.levelbench.doctor] applies to {_files(count)}", err=True)
    rest = len(set(report.files)) - sum(by_config.values())
    if rest:
        click.echo(f"levelbench doctor: no configuration file for {_files(rest)} (defaults)", err=True)


def _files(count: int) -> str:
    return f"{count} file{'s' if count != 1 else ''}"


def _render(report: DoctorReport, output_format: str, show_fixes: bool, color: bool | None, *, out: TextIO) -> None:
    if output_format in ("text", "concise"):
        concise = output_format == "concise"
        render_text(report, out, sys.stderr, concise=concise, show_fixes=show_fixes, color=color)
        return
    for diagnostic in report.diagnostics:
        if diagnostic.code == "LB100":
            click.echo(str(diagnostic), err=True)
    text = MACHINE_FORMATS[output_format](report)
    if text:
        click.echo(text, file=out)


def _apply(fixed: FixReport, paths: tuple[str, ...], *, diff: bool, stdin_name: str | None) -> tuple[bool, list[str]]:
    """Write the fixed files (or print their diff, or the fixed standard input) as `plan_fixes` decides; whether
    anything changed, and the fixed files that could not be written.
    A file that cannot be written is named with the reason, and the rest are written; Ctrl-C while
    writing says which files were written, and exits 130."""
    plan = plan_fixes(fixed.results, diff=diff, stdin_name=stdin_name)
    for shown in plan.shown:
        click.echo(shown.text, nl=False, err=shown.err)
    if not plan.to_write:
        return plan.changed, []
    written = write_fixes(plan.to_write, paths)
    for path, why in written.skipped:
        click.echo(f"levelbench doctor: {path}: {why}", err=True)
    if written.interrupted is not None:
        done = ", ".join(written.written) if written.written else "none"
        left = len(plan.to_write) - len(written.written) - len(written.skipped)
        fail(f"levelbench doctor: interrupted ({str(written.interrupted) or 'Ctrl-C'}) while writing fixes: "
             f"{len(written.written)} file(s) written whole ({done}), {left} left as they were", INTERRUPTED)
    return plan.changed, [path for path, _ in written.skipped]


def _fix_summary(fixed: FixReport, *, diff: bool, fix_only: tuple[str, ...], unsafe: bool,
                 unwritten: Sequence[str] = ()) -> str:
    """``Fixed 6 of 8 findings in 1 file (2 need a manual rewrite: LB106, LB114).``

    A file that could not be read is counted as such, not as a finding to rewrite by hand: nothing in it was
    looked at."""
    count = sum(fixed.fixed.values())
    files = sum(1 for r in fixed.results if r.changed)
    left = fixed.unfixed(fix_only, unsafe)
    notes = []
    if unwritten:
        notes.append(f"{_files(len(unwritten))} not written, as said above")
    if left.unreadable:
        notes.append(f"{_files(left.unreadable)} could not be read: LB100")
    if left.manual:
        notes.append(f"{len(left.manual)} need{'s' if len(left.manual) == 1 else ''} a manual rewrite: "
                     f"{_codes(left.manual)}")
    if left.unsafe:
        notes.append(f"{len(left.unsafe)} more with --unsafe-fixes: {_codes(left.unsafe)}")
    if left.excluded:
        notes.append(f"{len(left.excluded)} left out by --fix-only: {_codes(left.excluded)}")
    verb = "Would fix" if diff else "Fixed"
    where = f" in {files} file{'s' if files != 1 else ''}" if count else ""
    tail = f" ({'; '.join(notes)})" if notes else ""
    return f"{verb} {count} of {fixed.found} finding{'s' if fixed.found != 1 else ''}{where}{tail}."


def _codes(codes: Sequence[str]) -> str:
    return ", ".join(sorted(set(codes)))
