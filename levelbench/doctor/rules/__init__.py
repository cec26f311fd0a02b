"""The static doctor's rules, one module each: ``lb1xx_<what>.py`` with ``CODE = "LB1xx"`` and
``def check(ctx: Context) -> Iterator[Diagnostic]``, and the fixes only that rule builds.

A rule is registered by being here: `levelbench.doctor._engine.rule_checks` lists this package once per
process and checks it against the catalogue (`levelbench._values.catalogue.static`, which holds each rule's
words). A rule imports no other rule: what two rules share is in the doctor's model (`_vocabulary`,
`_fixes`, `_regions`, ...). Nothing is imported here, so that listing the package loads each rule once.
"""
