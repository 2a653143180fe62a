"""Hypothesis profiles for the property tests.

``default`` keeps ``make test`` fast; ``HYPOTHESIS_PROFILE=thorough`` runs many more
examples (e.g. before a release, or after touching the engine).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
