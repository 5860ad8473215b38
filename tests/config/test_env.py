import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_networks, env_str, env_url


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("true", True),
        ("1", True),
        ("YES", True),
        (" on ", True),
        ("false", False),
        ("0", False),
        ("no", False),
        ("", False),
    ],
)
def test_env_bool_reads_common_spellings(raw, expected):
    assert env_bool("FLAG", not expected, environ={"FLAG": raw}) is expected


def test_env_bool_uses_the_default_when_unset():
    assert env_bool("FLAG", True, environ={}) is True


@pytest.mark.parametrize("raw", ["maybe", "2", "tru"])
def test_env_bool_rejects_anything_else_naming_the_variable(raw):
    with pytest.raises(ImproperlyConfigured, match="FLAG"):
        env_bool("FLAG", False, environ={"FLAG": raw})


def test_env_int_reads_numbers_and_checks_the_minimum():
    assert env_int("N", 5, environ={"N": " 42 "}) == 42
    assert env_int("N", 5, environ={}) == 5
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        env_int("N", 5, minimum=1, environ={"N": "0"})


@pytest.mark.parametrize("raw", ["ten", "1.5", "0x10"])
def test_env_int_rejects_non_integers(raw):
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env_int("N", 5, environ={"N": raw})


def test_env_list_splits_on_commas_and_rejects_empty_items():
    assert env_list("HOSTS", [], environ={"HOSTS": "a.org, b.org"}) == ["a.org", "b.org"]
    with pytest.raises(ImproperlyConfigured):
        env_list("HOSTS", [], environ={"HOSTS": "a.org,,b.org"})


def test_env_str_treats_blank_as_unset():
    assert env_str("KEY", "default", environ={"KEY": "  "}) == "default"


@pytest.mark.parametrize(
    ("raw", "ok"),
    [
        ("postgres://u@h/db", True),
        ("redis://127.0.0.1:6379/0", False),
        ("localhost/db", False),
        ("postgres://", False),
    ],
)
def test_env_url_checks_the_scheme(raw, ok):
    if ok:
        assert env_url("DATABASE_URL", ("postgres",), environ={"DATABASE_URL": raw}) == raw
    else:
        with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
            env_url("DATABASE_URL", ("postgres",), environ={"DATABASE_URL": raw})


def test_env_networks_reads_addresses_and_networks_and_rejects_anything_else():
    environ = {"PROXIES": "203.0.113.0/24, 2001:db8::1"}
    assert env_networks("PROXIES", [], environ=environ) == ["203.0.113.0/24", "2001:db8::1"]
    with pytest.raises(ImproperlyConfigured, match="PROXIES"):
        env_networks("PROXIES", [], environ={"PROXIES": "proxy.internal"})


def test_env_float_reads_fractions_and_checks_the_minimum():
    from config.env import env_float

    assert env_float("T", 0.5, minimum=0.01, environ={"T": " 0.25 "}) == 0.25
    assert env_float("T", 0.5, minimum=0.01, environ={}) == 0.5
    for raw, message in [("0", "at least 0.01"), ("nan", "at least"), ("soon", "a number")]:
        with pytest.raises(ImproperlyConfigured, match=message):
            env_float("T", 0.5, minimum=0.01, environ={"T": raw})
