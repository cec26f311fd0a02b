"""An MkDocs hook that writes the command-line reference from the click commands themselves.

docs/reference/cli.md holds a marker line; at build time it becomes one section per command, each
with the text ``levelbench COMMAND --help`` prints (click's own rendering, at 78 columns), so the
reference cannot drift from the code. mkdocs.yml names this file under ``hooks``.
"""

from __future__ import annotations

import click

MARKER = "<!-- cli-reference -->"
WIDTH = 78  # what fits the page's code blocks without scrolling


def help_text(command: click.Command, name: str, parent: click.Context | None = None) -> str:
    ctx = click.Context(command, info_name=name, parent=parent, terminal_width=WIDTH, max_content_width=WIDTH)
    return command.get_help(ctx)


def cli_reference() -> str:
    from levelbench._cli.main import main

    root = click.Context(main, info_name="levelbench", terminal_width=WIDTH, max_content_width=WIDTH)
    sections = ["## `levelbench`", "", "```text", help_text(main, "levelbench"), "```", ""]
    for name in main.list_commands(root):
        command = main.get_command(root, name)
        sections += [f"## `levelbench {name}`", "", "```text", help_text(command, name, root), "```", ""]
    return "\n".join(sections)


def on_page_markdown(markdown: str, page, config, files) -> str:  # noqa: ANN001 (MkDocs' hook signature)
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, cli_reference())
