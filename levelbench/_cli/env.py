"""``levelbench env``: the environment levelbench records with each result."""

from __future__ import annotations

import click


@click.command("env")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--with", "frameworks", multiple=True, type=click.Choice(["jax", "torch"]),
              help="Import a framework first so its devices and settings are included.")
def env_command(as_json: bool, frameworks: tuple[str, ...]) -> None:
    """Show the environment levelbench records with each result."""
    import importlib
    import json

    from .._measuring.environment import collect

    for name in frameworks:
        importlib.import_module(name)
    env = collect()
    if as_json:
        click.echo(json.dumps(env, indent=2, default=str))
        return
    from rich.pretty import Pretty

    from .._rendering.terminal import console

    console().print(Pretty(env))
