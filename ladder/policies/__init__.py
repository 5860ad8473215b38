"""Registry of rating policies, by the name a club's settings store.

To add a policy: write a module in this package that defines ``POLICY`` (an
object satisfying ``RatingPolicy``) and add its dotted path to
``_POLICY_MODULES``. Nothing else in the code base needs to change.
"""

from __future__ import annotations

import importlib
from typing import Any

from ladder.policies.base import RatingPolicy

_POLICY_MODULES: tuple[str, ...] = (
    "ladder.policies.ladder",  # the default
    "ladder.policies.hsb",
)

DEFAULT_POLICY = "ladder"


def _load(modules: tuple[str, ...]) -> dict[str, RatingPolicy[Any]]:
    registry: dict[str, RatingPolicy[Any]] = {}
    for path in modules:
        policy = importlib.import_module(path).POLICY
        if not isinstance(policy, RatingPolicy):
            raise TypeError(f"{path}.POLICY does not implement RatingPolicy")
        if policy.name in registry:
            raise TypeError(f"{path}: policy name {policy.name!r} is already registered")
        registry[policy.name] = policy
    return registry


POLICIES: dict[str, RatingPolicy[Any]] = _load(_POLICY_MODULES)


def get_policy(name: str) -> RatingPolicy[Any]:
    try:
        return POLICIES[name]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise ValueError(f"unknown rating policy {name!r}; known policies: {known}") from None
