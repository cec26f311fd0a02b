"""levelbench's version, written once (pyproject.toml reads it from here)."""

VERSION = "0.1.0"
