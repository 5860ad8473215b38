"""Which address a request counts against: a table of cases, no database."""

import pytest

from clubs.accounts.client_address import UNKNOWN, client_address

PROXY = "172.18.0.2"


@pytest.mark.parametrize(
    ("remote", "forwarded", "behind_proxy", "trusted", "expected"),
    [
        ("192.0.2.1", None, False, (), "192.0.2.1"),
        # Without our proxy in front, whatever the client writes in the header is ignored.
        ("192.0.2.1", "10.0.0.1", False, (), "192.0.2.1"),
        # Behind it, the entry the proxy appended (the right-most) is the client...
        (PROXY, "198.51.100.7", True, (), "198.51.100.7"),
        # ...and anything the client sent in front of it is ignored.
        (PROXY, "10.0.0.1, 1.1.1.1, 198.51.100.7", True, (), "198.51.100.7"),
        # Proxies of our own (a CDN) are skipped from the right.
        (PROXY, "10.0.0.1, 198.51.100.7, 203.0.113.5", True, ("203.0.113.0/24",), "198.51.100.7"),
        (PROXY, "", True, (), PROXY),
        (PROXY, "not-an-address", True, (), PROXY),
        (PROXY, "198.51.100.7:51234", True, (), "198.51.100.7"),
        # One IPv6 household or server is one /64.
        ("2001:db8:1:2:aaaa::1", None, False, (), "2001:db8:1:2::/64"),
        (PROXY, "[2001:db8:1:2::9]:443", True, (), "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.1", None, False, (), "192.0.2.1"),
        (None, None, False, (), UNKNOWN),
    ],
)
def test_the_client_address_is_the_right_most_hop_we_did_not_set_up(
    remote, forwarded, behind_proxy, trusted, expected
):
    result = client_address(remote, forwarded, behind_proxy=behind_proxy, trusted_proxies=trusted)
    assert result == expected
