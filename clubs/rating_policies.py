"""The rating policies a club's ladder may store, by name, each with the label its settings
show. Plain Python, no Django.

The data names what a ladder may store; the engine's registry (ladder.policies) computes it,
one policy for each name here, which tests/ladder/test_policies.py checks. To add a
policy: its name and label here, its module in ladder/policies/ (see that package).
"""

from __future__ import annotations

POLICY_LABELS: dict[str, str] = {
    "ladder": "Club ladder",  # the default
    "hsb": "HSB junior rating",
}

DEFAULT_POLICY = "ladder"
