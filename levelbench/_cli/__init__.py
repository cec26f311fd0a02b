"""The ``levelbench`` command line: one module per command, each a library call plus rendering."""

from .main import main as main
