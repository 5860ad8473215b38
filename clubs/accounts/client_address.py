"""Which network address a request came from, for the abuse limits. Plain Python, no Django.

Without a proxy in front it is the connection's address (REMOTE_ADDR). Behind our TLS
proxy REMOTE_ADDR is the proxy, which appends the address it saw to X-Forwarded-For;
everything left of that entry is whatever the client chose to send. So we read the
entries from the right, skip the ones that are proxies of our own (TRUSTED_PROXIES), and
take the first other one: the right-most hop we did not set up, which a client cannot forge.
An IPv6 client counts as its /64, the block one household or server is usually given.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

UNKNOWN = "unknown"


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443"
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # "192.0.2.1:443"
        text = text.split(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _as_key(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def client_address(
    remote_addr: str | None,
    forwarded_for: str | None,
    *,
    behind_proxy: bool,
    trusted_proxies: Sequence[str] = (),
) -> str:
    """The client's address (an IPv6 client as its /64) as a text key."""
    remote = _address(remote_addr or "")
    if behind_proxy and forwarded_for:
        trusted = [ipaddress.ip_network(net, strict=False) for net in trusted_proxies]
        for entry in reversed(forwarded_for.split(",")):
            hop = _address(entry)
            if hop is None:
                break  # not an address: nothing further left can be believed either
            if not any(hop in net for net in trusted):
                return _as_key(hop)
    return _as_key(remote) if remote is not None else UNKNOWN
