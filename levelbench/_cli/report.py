"""``levelbench report [RUN...] --html report.html`` / ``--format md``: a thin command over `levelbench.report`."""

from __future__ import annotations

import click

from .common import check_output, db_option, write_output
from .store import store_errors


@click.command("report")
@click.argument("runs", nargs=-1)
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Write a self-contained HTML report with plots to this file.")
@click.option("--format", "fmt", type=click.Choice(["html", "md"]), default=None,
              help="html (plots; default when writing a .html file) or md (tables; default otherwise).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="File to write ('-' for stdout; default: stdout for md, report.html for html).")
@click.option("--title", default="levelbench report", show_default=True, help="Title of the report.")
@db_option
def report_command(runs: tuple[str, ...], html_path: str | None, fmt: str | None, output: str | None, title: str,
                   db: str | None) -> None:
    """Report recorded RUNS (ids, latest, latest~N; default: latest) as HTML or Markdown.

    Per workload: a table, medians with CI by framework, sample distributions, compile time
    against steady time, sweeps plotted against the swept parameter, history across the runs.

    \b
    Examples:
      levelbench report --html report.html                 # the latest run
      levelbench report 3 4 latest --html report.html      # with history lines
      levelbench report --format md > comment.md           # for an issue
    """
    from ..store import open_store

    if html_path and output:
        raise click.UsageError("give the file once: --html PATH, or --format html -o PATH")
    if html_path and fmt == "md":
        raise click.UsageError("--html writes HTML; for Markdown use --format md -o PATH")
    dest = html_path or output
    fmt = fmt or ("html" if html_path or (dest and dest.lower().endswith((".html", ".htm"))) else "md")
    dest = dest or ("report.html" if fmt == "html" else "-")
    check_output(dest, "levelbench report --html" if html_path else "levelbench report -o")

    with store_errors("report"), open_store(db, create=False) as store:
        recorded = store.select_runs(runs)
    if fmt == "html":
        from ..report import html_report

        try:
            text = html_report(recorded, title=title)
        except ImportError as e:
            click.echo(f"levelbench report: {e}", err=True)
            raise SystemExit(2) from None
    else:
        from ..report import markdown_report

        text = markdown_report(recorded, title=title)
    if dest == "-":
        click.echo(text, nl=False)
        return
    write_output(dest, text, "levelbench report --html" if html_path else "levelbench report -o")
    click.echo(f"wrote {dest} ({len(recorded)} run(s))", err=True)
