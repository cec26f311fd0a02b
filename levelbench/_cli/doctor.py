"""``levelbench doctor``: a thin command over `lint_paths` and the renderers."""

from __future__ import annotations

import sys

import click

from .._values.findings import Severity
from .._values.catalogue import CATALOGUE, RULES, rule_for
from ..doctor._engine import lint_paths, selected_codes
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

    Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage error.
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
    report = lint_paths(
        paths, select=select, ignore=ignore, exclude=exclude, max_bytes=max_bytes, stdin_name=stdin_filename
    )
    if output_format in ("text", "concise"):
        concise = output_format == "concise"
        render_text(report, sys.stdout, sys.stderr, concise=concise, show_fixes=show_fixes, color=color)
    else:
        for diagnostic in report.diagnostics:
            if diagnostic.code == "LB100":
                click.echo(str(diagnostic), err=True)
        click.echo(render_json(report) if output_format == "json" else render_sarif(report))
    ctx.exit(FINDINGS if report.at_or_above(Severity.parse(fail_on)) else OK)
