"""``levelbench doctor``: a thin command over `lint_paths` and the renderers."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from .._values.findings import Severity
from .._values.catalogue import CATALOGUE, RULES, resolve_codes, rule_for
from ..doctor._diagnostic import DoctorReport
from ..doctor._engine import lint_paths, selected_codes
from ..doctor._fixer import FixReport, applicable, fix_paths, write_fixed
from ..doctor._load import DEFAULT_MAX_BYTES
from .._rendering.doctor_machine import render_json, render_sarif
from .._rendering.doctor_text import render_text
from .common import FINDINGS, OK


@click.command(
    "doctor",
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True, path_type=str))
@click.option(
    "--format", "output_format", type=click.Choice(["text", "concise", "json", "sarif"]), default="text",
    show_default=True, help="text: findings with the source line and a caret; concise: one line each.",
)
@click.option(
    "--select", multiple=True, metavar="CODES", help="Only these rules: codes or prefixes, comma-separated (LB10,LB111)."
)
@click.option("--ignore", multiple=True, metavar="CODES", help="Skip these rules: codes or prefixes, comma-separated.")
@click.option(
    "--fail-on", type=click.Choice(["info", "warning", "error"]), default="warning", show_default=True,
    help="Exit with status 1 when a finding of this severity or worse remains.",
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
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip files and directories matching GLOB (repeatable).")
@click.option(
    "--max-bytes", type=click.IntRange(min=1), default=DEFAULT_MAX_BYTES, show_default=True,
    help="Skip (and report) files larger than this.",
)
@click.option(
    "--stdin-filename", default="<stdin>", show_default=True, help="Name for standard input (.ipynb: a notebook)."
)
@click.option("--color/--no-color", default=None, help="Force colour on or off (default: when writing to a terminal).")
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
    max_bytes: int,
    stdin_filename: str,
    color: bool | None,
) -> None:
    """Find benchmarking and JAX-performance mistakes in scripts and notebooks, without running them.

    PATHS are Python files, Jupyter notebooks, directories (searched for *.py and *.ipynb, skipping
    hidden directories and virtual environments), or - for standard input.

    \b
    Examples:
      levelbench doctor bench.py notebooks/
      levelbench doctor --format sarif src/ > doctor.sarif
      levelbench doctor --select LB101,LB102 --fail-on error bench.ipynb
      levelbench doctor --explain LB106
      levelbench doctor --diff bench.ipynb          # what --fix would change
      levelbench doctor --fix --unsafe-fixes bench.py

    Exit status: 0 clean, 1 findings at or above --fail-on (with --diff: also when there is
    something to fix), 2 usage error.
    """
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
    try:
        selected_codes(select, ignore)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--select/--ignore") from None
    if fix_only:
        try:
            resolve_codes(fix_only)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--fix-only") from None
    if fix or diff or fix_only:
        fixed = fix_paths(
            paths, select=select, ignore=ignore, fix_only=fix_only or None, unsafe=unsafe_fixes, exclude=exclude,
            max_bytes=max_bytes, stdin_name=stdin_filename,
        )
        pending = _apply(fixed, diff=diff, stdin_name=stdin_filename if "-" in paths else None)
        report = fixed.remaining
        if not diff:
            to_stderr = "-" in paths  # stdout holds the fixed source
            _render(report, output_format, show_fixes, color, out=sys.stderr if to_stderr else sys.stdout)
        click.echo(_fix_summary(fixed, diff=diff, fix_only=fix_only, unsafe=unsafe_fixes), err=True)
        failed = bool(report.at_or_above(Severity.parse(fail_on))) or (diff and pending)
        ctx.exit(FINDINGS if failed else OK)
    report = lint_paths(
        paths, select=select, ignore=ignore, exclude=exclude, max_bytes=max_bytes, stdin_name=stdin_filename
    )
    _render(report, output_format, show_fixes, color, out=sys.stdout)
    ctx.exit(FINDINGS if report.at_or_above(Severity.parse(fail_on)) else OK)


def _render(report: DoctorReport, output_format: str, show_fixes: bool, color: bool | None, *, out: TextIO) -> None:
    if output_format in ("text", "concise"):
        concise = output_format == "concise"
        render_text(report, out, sys.stderr, concise=concise, show_fixes=show_fixes, color=color)
        return
    for diagnostic in report.diagnostics:
        if diagnostic.code == "LB100":
            click.echo(str(diagnostic), err=True)
    click.echo(render_json(report) if output_format == "json" else render_sarif(report), file=out)


def _apply(fixed: FixReport, *, diff: bool, stdin_name: str | None) -> bool:
    """Write the fixed files (or print their diff, or the fixed standard input); whether anything changed."""
    changed = False
    for result in fixed.results:
        for line in result.skipped:
            click.echo(line, err=True)
        if stdin_name is not None and result.path == stdin_name:
            if diff:
                click.echo(result.diff(), nl=False)
            else:
                click.echo(result.text, nl=False)
            changed |= result.changed
            continue
        if not result.changed:
            continue
        changed = True
        if diff:
            click.echo(result.diff(), nl=False)
        else:
            write_fixed(result)
    return changed


def _fix_summary(fixed: FixReport, *, diff: bool, fix_only: tuple[str, ...], unsafe: bool) -> str:
    """``Fixed 6 of 8 findings in 1 file (2 need a manual rewrite: LB106, LB114).``"""
    count = sum(fixed.fixed.values())
    files = sum(1 for r in fixed.results if r.changed)
    fixing = resolve_codes(fix_only) if fix_only else frozenset(RULES)
    manual: list[str] = []
    hidden: list[str] = []
    excluded: list[str] = []
    for d in fixed.remaining.diagnostics:
        if d.fix is not None and d.code in fixing and not unsafe and RULES[d.code].fix_safety == "unsafe":
            hidden.append(d.code)
        elif d.fix is not None and d.code not in fixing and RULES[d.code].fix_safety:
            excluded.append(d.code)
        elif not applicable(d, fixing, unsafe):
            manual.append(d.code)
    notes = []
    if manual:
        notes.append(f"{len(manual)} need{'s' if len(manual) == 1 else ''} a manual rewrite: {_codes(manual)}")
    if hidden:
        notes.append(f"{len(hidden)} more with --unsafe-fixes: {_codes(hidden)}")
    if excluded:
        notes.append(f"{len(excluded)} left out by --fix-only: {_codes(excluded)}")
    verb = "Would fix" if diff else "Fixed"
    where = f" in {files} file{'s' if files != 1 else ''}" if count else ""
    tail = f" ({'; '.join(notes)})" if notes else ""
    return f"{verb} {count} of {fixed.found} finding{'s' if fixed.found != 1 else ''}{where}{tail}."


def _codes(codes: list[str]) -> str:
    return ", ".join(sorted(set(codes)))
