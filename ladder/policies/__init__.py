"""Registry of rating policies, by the name a club's settings store.

To add a policy: name it in clubs/rating_policies.py (what a ladder may store), write a
module in this package that defines ``POLICY`` (an object satisfying ``RatingPolicy``) and
add its dotted path to ``_POLICY_MODULES``. Nothing else in the code base needs to change.
"""

from __future__ import annotations

import importlib

from clubs.rating_policies import DEFAULT_POLICY as DEFAULT_POLICY
from ladder.policies.base import PolicySettings, RatingPolicy

# A policy from the registry, whichever it is. Each policy is only ever given the settings its
# own parse_settings made (every caller parses with the policy it got), a pairing the types
# cannot spell across several policies: so the registry holds them by the settings base class.
Policy = RatingPolicy[PolicySettings]

_POLICY_MODULES: tuple[str, ...] = (
    "ladder.policies.ladder",  # the default
    "ladder.policies.hsb",
)


def _load(modules: tuple[str, ...]) -> dict[str, Policy]:
    registry: dict[str, Policy] = {}
    for path in modules:
        policy = importlib.import_module(path).POLICY
        if not isinstance(policy, RatingPolicy):
            raise TypeError(f"{path}.POLICY does not implement RatingPolicy")
        if policy.name in registry:
            raise TypeError(f"{path}: policy name {policy.name!r} is already registered")
        registry[policy.name] = policy
    return registry


POLICIES: dict[str, Policy] = _load(_POLICY_MODULES)


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise ValueError(f"unknown rating policy {name!r}; known policies: {known}") from None
