"""``levelbench env``: the environment levelbench records with each result."""

from __future__ import annotations

import click

from .common import choose_output, emit, format_option, json_flag_option, output_option, show_text


@click.command("env")
@format_option()
@output_option()
@json_flag_option()
@click.option("--with", "frameworks", multiple=True, type=click.Choice(["jax", "torch"]),
              help="Import a framework first so its devices and settings are included.")
def env_command(fmt: str, output: str | None, json_flag: bool, frameworks: tuple[str, ...]) -> None:
    """Show the environment levelbench records with each result."""
    import importlib
    import json

    from .._measuring.environment import collect

    fmt, output = choose_output("env", fmt, output, json_flag=json_flag)
    for name in frameworks:
        importlib.import_module(name)
    env = collect()
    if fmt == "json":
        emit("env", output, json.dumps(env, indent=2, default=str))
        return
    from rich.pretty import Pretty

    show_text("env", output, Pretty(env))
