"""The doctor's configuration, like ruff's: ``[tool.levelbench.doctor]`` in ``pyproject.toml``, and what it
means for each file once the command line has had its say.

```toml
[tool.levelbench.doctor]
select = ["LB1"]                 # rules to report (codes or prefixes; default: all)
ignore = ["LB105"]               # rules to leave out
fail-on = "error"                # exit 1 only for findings this severe (info, warning, error)
exclude = ["legacy", "notebooks/scratch/*.ipynb"]
[tool.levelbench.doctor.per-file-ignores]
"tests/*" = ["LB104", "LB105"]
```

Each file gets the table of the nearest ``pyproject.toml`` above it that has one. Globs are
matched (``fnmatch``: ``*`` also crosses ``/``, and ``**/`` also stands for no directory at all, as in
gitignore: ``sub/**/bench.py`` matches ``sub/bench.py``) against the file's path relative to that
``pyproject.toml``, against its name, and against each directory it is in, so ``legacy`` means
any directory named so. The command line overrides the file as in ruff: ``--select`` replaces both
``select`` and ``ignore``, ``--ignore`` adds to ``ignore``, ``--fail-on`` and ``--exclude`` replace
theirs; ``per-file-ignores`` always apply.
"""

from __future__ import annotations

import dataclasses
import difflib
import fnmatch
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from .._values.catalogue import RULES, resolve_codes
from .._values.findings import Severity
from .._values.pyproject import ConfigError, ToolTable, find_table, read_table, toml_type
from ._diagnostic import Diagnostic, DoctorReport

SECTION = "doctor"
KEYS = ("select", "ignore", "per-file-ignores", "fail-on", "exclude")
DEFAULT_FAIL_ON = Severity.WARNING

ConfigChoice = bool | str | os.PathLike[str]
"""Which configuration applies: False none, True the nearest ``pyproject.toml`` above each file, or a file."""

__all__ = ["ConfigError", "DoctorConfig", "FileSettings", "Options", "Settings"]


@dataclasses.dataclass(frozen=True)
class DoctorConfig:
    """A checked ``[tool.levelbench.doctor]`` table (codes still as written; checked to match rules)."""

    path: Path
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fail_on: Severity | None = None
    exclude: tuple[str, ...] = ()

    @property
    def root(self) -> Path:
        return self.path.parent

    @classmethod
    def from_table(cls, table: ToolTable) -> DoctorConfig:
        """Check every key and value of ``table``.

        Raises:
            ConfigError: an unknown key, a value of the wrong type, an unknown rule code or severity;
                one line with the file, the key, what was expected, what was found and the fix.
        """
        where = f"{table.path}: {table.name}"
        values = table.values
        for key in values:
            if key not in KEYS:
                close = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1)
                hint = f"did you mean {close[0]!r}?" if close else "remove it"
                raise ConfigError(f"{where}: unknown key {key!r}: expected one of {', '.join(KEYS)}; {hint}")
        select = _codes(values, "select", where) if "select" in values else None
        ignore = _codes(values, "ignore", where) if "ignore" in values else ()
        per_file = values.get("per-file-ignores", {})
        if not isinstance(per_file, dict):
            raise ConfigError(
                f"{where} per-file-ignores: expected a table of glob = [codes], got {toml_type(per_file)} "
                f"{per_file!r}: write it as [tool.levelbench.doctor.per-file-ignores] with lines like "
                '"tests/*" = ["LB104"]'
            )
        per_file_ignores = tuple(
            (_glob(glob, f"{where} per-file-ignores"), _codes(per_file, glob, f"{where} per-file-ignores",
                                                              label=repr(glob)))
            for glob in per_file
        )
        fail_on = None
        if "fail-on" in values:
            raw = values["fail-on"]
            accepted = ", ".join(repr(s.name.lower()) for s in Severity)
            if not isinstance(raw, str) or raw.strip().upper() not in Severity.__members__:
                raise ConfigError(
                    f"{where} fail-on: expected one of {accepted}, got {toml_type(raw)} {raw!r}: "
                    'write e.g. fail-on = "error"'
                )
            fail_on = Severity.parse(raw)
        exclude = tuple(_glob(g, f"{where} exclude")
                        for g in _strings(values, "exclude", where, example='["legacy", "notebooks/scratch/*"]'))
        return cls(table.path, select, ignore, per_file_ignores, fail_on, exclude)


@dataclasses.dataclass(frozen=True)
class Options:
    """What the caller asked for (the command line); empty or None leaves it to the configuration."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: Severity | None = None
    exclude: tuple[str, ...] = ()
    config: ConfigChoice = False

    @classmethod
    def of(
        cls,
        select: Iterable[str] | None = None,
        ignore: Iterable[str] | None = None,
        fail_on: str | Severity | None = None,
        exclude: Iterable[str] = (),
        config: ConfigChoice = False,
    ) -> Options:
        severity = Severity.parse(fail_on) if isinstance(fail_on, str) else fail_on
        return cls(tuple(select or ()), tuple(ignore or ()), severity, tuple(exclude), config)


@dataclasses.dataclass(frozen=True)
class FileSettings:
    """What applies to one file: the rule codes reported, the severity that fails, the config used."""

    codes: frozenset[str]
    fail_on: Severity
    config: DoctorConfig | None = None
    excluded: bool = False


class Settings:
    """Resolves `FileSettings` per file: finds (and caches) each directory's configuration.

    Raises `ConfigError` on a configuration that cannot be used, when it is first needed (at once
    for an explicit file).
    """

    def __init__(self, options: Options, *, cwd: Path | None = None) -> None:
        self.options = options
        self.cwd = cwd or Path.cwd()
        self._found: dict[Path, ToolTable | None] = {}
        self._checked: dict[Path, DoctorConfig] = {}
        self._fixed: DoctorConfig | None = None
        self._mode: Literal["none", "discover", "file"] = "none"
        self._applied: dict[str, FileSettings] = {}
        resolve_codes(options.select)  # unknown codes fail now, before any file is read
        resolve_codes(options.ignore)
        if options.config is True:
            self._mode = "discover"
        elif options.config is not False:
            path = Path(options.config)
            if not path.is_file():
                raise ConfigError(
                    f"--config: no such file {path}: expected a pyproject.toml (or other TOML file) with a "
                    "[tool.levelbench.doctor] table"
                )
            self._mode = "file"
            table = read_table(path, SECTION, required=True)
            assert table is not None
            self._fixed = DoctorConfig.from_table(table)

    def config_for(self, path: str) -> DoctorConfig | None:
        """The configuration that applies to the file ``path`` (``<stdin>``: the working directory's)."""
        if self._mode == "file":
            return self._fixed
        if self._mode == "none":
            return None
        target = self.cwd / path
        directory = self.cwd if path.startswith("<") else target if target.is_dir() else target.parent
        table = find_table(directory, SECTION, self._found)
        if table is None:
            return None
        if table.path not in self._checked:
            self._checked[table.path] = DoctorConfig.from_table(table)
        return self._checked[table.path]

    def for_file(self, path: str) -> FileSettings:
        """The settings of one input: its rule codes (per-file-ignores applied), fail-on, exclusion."""
        options = self.options
        config = self.config_for(path)
        relative = self._relative(path, config)
        if options.select:
            codes = set(resolve_codes(options.select))
            ignored = set()
        else:
            codes = set(resolve_codes(config.select)) if config and config.select is not None else set(RULES)
            ignored = set(resolve_codes(config.ignore)) if config else set()
        ignored |= resolve_codes(options.ignore)
        if config:
            for glob, file_codes in config.per_file_ignores:
                if _matches(relative, glob):
                    ignored |= resolve_codes(file_codes)
        if "LB100" not in ignored:
            codes.add("LB100")  # unreadable input is reported unless ignored explicitly
        patterns = config.exclude if config and not options.exclude else ()
        fail_on = options.fail_on or (config.fail_on if config else None) or DEFAULT_FAIL_ON
        applied = FileSettings(
            frozenset(codes - ignored), fail_on, config, any(_matches(relative, glob) for glob in patterns)
        )
        self._applied[path] = applied
        return applied

    def report(self, diagnostics: tuple[Diagnostic, ...], files: tuple[str, ...]) -> DoctorReport:
        """A `DoctorReport` of ``files`` that remembers each one's ``fail-on`` and configuration file."""
        applied = [(path, self._applied[path]) for path in files if path in self._applied]
        return DoctorReport(
            diagnostics,
            files,
            fail_on=tuple((path, s.fail_on) for path, s in applied),
            configs=tuple((path, str(s.config.path)) for path, s in applied if s.config),
        )

    def _relative(self, path: str, config: DoctorConfig | None) -> str:
        if path.startswith("<") or config is None:
            return Path(path.strip("<>")).as_posix()
        absolute = Path(os.path.abspath(self.cwd / path))
        return Path(os.path.relpath(absolute, config.root)).as_posix()


def describe(config: DoctorConfig | None, settings: FileSettings, options: Options) -> list[str]:
    """The settings for one file as ``key = value`` lines, for ``--show-settings``."""
    lines = [f"config = {str(config.path)!r}" if config else "config = none (defaults)"]
    lines.append(f"select = {sorted(settings.codes)!r}")
    if config:
        lines.append(f"ignore = {list(config.ignore)!r}")
        lines.append(f"per-file-ignores = {dict(config.per_file_ignores)!r}")
        lines.append(f"exclude = {list(options.exclude or config.exclude)!r}")
    elif options.exclude:
        lines.append(f"exclude = {list(options.exclude)!r}")
    lines.append(f"fail-on = {settings.fail_on.name.lower()!r}")
    lines.append(f"excluded = {str(settings.excluded).lower()}")
    return lines


def _matches(relative: str, glob: str) -> bool:
    """Whether the file at ``relative`` (POSIX, from the config's directory) or a directory it is in matches."""
    pattern = glob[2:] if glob.startswith("./") else glob.lstrip("/")
    candidates = [relative]
    parts = relative.split("/")
    candidates += ["/".join(parts[:n]) for n in range(1, len(parts))]  # the directories it is in
    if "/" not in pattern.rstrip("/"):
        candidates += parts  # a bare name matches at any depth
    pattern = pattern.rstrip("/")
    return any(fnmatch.fnmatchcase(c, p) for c in candidates for p in _without_double_stars(pattern))


def _without_double_stars(pattern: str) -> list[str]:
    """``**/`` stands for any number of directories, none included, as in gitignore and ruff:
    ``sub/**/bench.py`` is also ``sub/bench.py`` (fnmatch's ``*`` already crosses ``/``)."""
    head, found, tail = pattern.partition("**/")
    if not found:
        return [pattern]
    rests = _without_double_stars(tail)
    return [head + "**/" + rest for rest in rests] + [head + rest for rest in rests]


def _glob(pattern: str, where: str) -> str:
    """``pattern`` if fnmatch reads it as its writer meant; an unclosed ``[`` would match only a literal ``[``."""
    i = 0
    while i < len(pattern):
        if pattern[i] == "[":
            close = pattern.find("]", i + 2 if pattern[i + 1:i + 2] in ("!", "]") else i + 1)
            if close == -1:
                raise ConfigError(
                    f"{where}: {pattern!r} has a '[' that is never closed, so it matches nothing: close the "
                    "character class ('[ab]'), or write a literal '[' as '[[]'")
            i = close
        i += 1
    return pattern


def _codes(values: Mapping[str, Any], key: str, where: str, *, label: str = "") -> tuple[str, ...]:
    codes = _strings(values, key, where, example='["LB104", "LB11"]', label=label)
    try:
        resolve_codes(codes)
    except ValueError as e:
        raise ConfigError(f"{where} {label or key}: {e}") from None
    return codes


def _strings(values: Mapping[str, Any], key: str, where: str, *, example: str, label: str = "") -> tuple[str, ...]:
    raw = values.get(key, [])
    name = label or key
    if isinstance(raw, str):
        raise ConfigError(f'{where} {name}: expected an array of strings, got a string {raw!r}: write {name} = ["{raw}"]')
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise ConfigError(
            f"{where} {name}: expected an array of strings, got {toml_type(raw)} {raw!r}: write e.g. {name} = {example}"
        )
    return tuple(raw)
