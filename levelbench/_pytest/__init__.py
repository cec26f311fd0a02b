"""Private parts of levelbench's pytest plugin (`levelbench.pytest_plugin`), imported when a test uses the fixture."""
