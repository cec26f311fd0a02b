"""Rendering: results to terminal tables, text and HTML. Renderers only read results.

Importing this package registers a renderer for each result type with `levelbench._values.display`,
so that ``print(measurement)`` and rich's ``console.print(comparison)`` show the full report.
"""

from __future__ import annotations

from .._results.cold_call import ColdCall
from .._results.comparison import Comparison
from .._results.diagnosis import Diagnosis
from .._results.measurement import Measurement
from .._values import display
from .cold_call import render_cold_call
from .comparison import render_comparison
from .diagnosis import render_diagnosis
from .terminal import render_measurement

display.register(Measurement, render_measurement)
display.register(Comparison, render_comparison)
display.register(Diagnosis, render_diagnosis)
display.register(ColdCall, render_cold_call)
