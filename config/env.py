"""Typed readers for environment variables.

Each helper rejects a malformed value with ImproperlyConfigured naming the
variable, so a typo in a deployment fails at start-up instead of silently
falling back to a default.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Mapping
from typing import overload

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})


# With a default the answer is always a str, so settings such as SITE_URL type as str.
@overload
def env_str(name: str, default: str, environ: Mapping[str, str] = ...) -> str: ...
@overload
def env_str(name: str, default: None = None, environ: Mapping[str, str] = ...) -> str | None: ...
def env_str(
    name: str, default: str | None = None, environ: Mapping[str, str] = os.environ
) -> str | None:
    value = environ.get(name)
    if value is None:
        return default
    return value.strip() or default


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    value = environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of true/false/1/0/yes/no/on/off, not {value!r}")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    environ: Mapping[str, str] = os.environ,
) -> int:
    value = environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {number}")
    return number


def env_float(
    name: str,
    default: float,
    *,
    minimum: float,
    environ: Mapping[str, str] = os.environ,
) -> float:
    """A number of seconds such as `0.5`; `minimum` keeps a timeout from being 0 (no limit)."""
    value = environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = float(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}") from None
    if not math.isfinite(number) or number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value.strip()}")
    return number


def env_list(name: str, default: list[str], environ: Mapping[str, str] = os.environ) -> list[str]:
    value = environ.get(name)
    if value is None:
        return default
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(f"{name} must be a comma-separated list without empty items")
    return items


def env_url(
    name: str,
    schemes: tuple[str, ...],
    environ: Mapping[str, str] = os.environ,
) -> str | None:
    value = env_str(name, None, environ)
    if value is None:
        return None
    scheme, sep, rest = value.partition("://")
    if not sep or scheme not in schemes or not rest:
        allowed = ", ".join(f"{s}://" for s in schemes)
        raise ImproperlyConfigured(f"{name} must be a URL starting with one of {allowed}")
    return value


def env_networks(
    name: str, default: list[str], environ: Mapping[str, str] = os.environ
) -> list[str]:
    """A comma-separated list of IP addresses or networks (CIDR), each checked."""
    items = env_list(name, default, environ)
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list IP addresses or networks, not {item!r}"
            ) from None
    return items
