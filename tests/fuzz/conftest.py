"""Hypothesis settings of the fuzz targets: a short, repeatable run by default, a long one on
demand (``FUZZ_EXAMPLES=5000 pytest tests/fuzz``, which is what ``make fuzz`` does)."""

from __future__ import annotations

import os
from datetime import timedelta

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "0") or 0)

settings.register_profile(
    "fuzz",
    max_examples=EXAMPLES or 10,
    # The contract: no input takes more than 10 s.
    deadline=timedelta(seconds=10),
    # The short run is the same on every machine; a long run explores anew each time.
    derandomize=not EXAMPLES,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
    print_blob=True,
)
