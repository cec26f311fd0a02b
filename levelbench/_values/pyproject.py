"""levelbench's tables in ``pyproject.toml``: ``[tool.levelbench.SECTION]``, found the way ruff finds its own.

Discovery walks up from a path to the nearest ``pyproject.toml`` that holds the table asked for; a
``pyproject.toml`` without it is passed over, so a sub-project without a levelbench table inherits
its parent's. The table's values are checked by their user (the doctor checks ``doctor``'s); this
module only finds and parses, and says in one line what is wrong with a file that cannot be read.

!!! Example
    ```toml
    [tool.levelbench.doctor]
    ignore = ["LB105"]
    ```
    >>> table = find_table(Path("."), "doctor")  # doctest: +SKIP
    >>> table.values["ignore"], table.path  # doctest: +SKIP
    (['LB105'], PosixPath('/repo/pyproject.toml'))
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

FILE_NAME = "pyproject.toml"


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file, the key, what was expected
    and what was found, and how to fix it, on one line."""


@dataclasses.dataclass(frozen=True)
class ToolTable:
    """The ``[tool.levelbench.SECTION]`` table of one file."""

    path: Path
    section: str
    values: dict[str, Any] = dataclasses.field(hash=False, compare=False)

    @property
    def root(self) -> Path:
        """The directory relative globs in the table are anchored to: the file's own."""
        return self.path.parent

    @property
    def name(self) -> str:
        """``[tool.levelbench.SECTION]``, as a user writes it."""
        return f"[tool.levelbench.{self.section}]"


def read_table(path: Path, section: str, *, required: bool = False) -> ToolTable | None:
    """The ``[tool.levelbench.SECTION]`` table of the TOML file ``path``, or None when it has none.

    Raises:
        ConfigError: the file cannot be read or is not valid TOML, the table is not a table, or
            (with ``required``) it has no such table.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror or e}): expected a readable TOML file") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start}): save it as UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML ({e}): fix the file, or pass --no-config to ignore it") from None
    table: Any = data
    for key in ("tool", "levelbench", section):
        if not isinstance(table, dict) or key not in table:
            table = None
            break
        table = table[key]
    name = f"[tool.levelbench.{section}]"
    if table is None:
        if required:
            raise ConfigError(f"{path}: expected a {name} table, got none: add one, or name another file")
        return None
    if not isinstance(table, dict):
        raise ConfigError(
            f"{path}: tool.levelbench.{section}: expected a table, got {toml_type(table)} {table!r}: "
            f"write it as a {name} section"
        )
    return ToolTable(path.resolve(), section, table)


def find_table(start: Path, section: str, cache: dict[Path, ToolTable | None] | None = None) -> ToolTable | None:
    """The table of the nearest ``pyproject.toml`` at or above the directory ``start`` that has it.

    ``cache`` (directory -> answer) saves re-reading files when many paths share directories.
    """
    cache = {} if cache is None else cache
    directory = start.resolve()
    visited: list[Path] = []
    found: ToolTable | None = None
    for candidate in (directory, *directory.parents):
        if candidate in cache:
            found = cache[candidate]
            break
        visited.append(candidate)
        file = candidate / FILE_NAME
        if file.is_file():
            found = read_table(file, section)
            if found is not None:
                break
    for candidate in visited:
        cache[candidate] = found
    return found


def toml_type(value: object) -> str:
    """``a string``, ``an array``...: how a TOML user names the type of ``value``."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array", dict: "a table"}
    return names.get(type(value), f"a {type(value).__name__}")
