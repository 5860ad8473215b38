"""Only a body Stripe signed with our secret, recently, is ever stored."""

import json
import time

import pytest
from django.test import Client
from django.urls import reverse

from billing.models import ProcessedStripeEvent, Subscription
from tests.billing.stripe_events import load_event, post_payload, sign

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("billing_on")]


def nothing_stored():
    return not ProcessedStripeEvent.objects.exists() and not Subscription.objects.exists()


@pytest.fixture
def payload(club):
    return json.dumps(load_event("customer_subscription_created", club.pk))


def test_a_correctly_signed_event_is_processed(client, payload, club):
    response = post_payload(client, payload, sign(payload))
    assert response.status_code == 200
    assert ProcessedStripeEvent.objects.get().event_id == "evt_1SkQ3qLzR2Vb8eYtCreated0"
    assert Subscription.objects.get().club == club


def test_a_signature_with_one_good_scheme_among_others_is_accepted(client, payload):
    signature = sign(payload) + ",v0=" + "0" * 64
    assert post_payload(client, payload, signature).status_code == 200


@pytest.mark.parametrize(
    "case",
    [
        "tampered body",
        "wrong secret",
        "stale timestamp",
        "missing header",
        "empty header",
        "malformed header",
        "timestamp that is not a number",
        "no v1 signature",
    ],
)
def test_a_bad_signature_is_refused_and_nothing_is_stored(client, payload, case):
    body, signature = payload, sign(payload)
    if case == "tampered body":
        body = payload.replace('"status": "active"', '"status": "canceled"')
        assert body != payload
    elif case == "wrong secret":
        signature = sign(payload, secret="whsec_someone_else")
    elif case == "stale timestamp":
        signature = sign(payload, timestamp=int(time.time()) - 301)
    elif case == "missing header":
        signature = None
    elif case == "empty header":
        signature = ""
    elif case == "malformed header":
        signature = "this is not a stripe signature"
    elif case == "timestamp that is not a number":
        signature = "t=yesterday," + sign(payload).split(",")[1]
    elif case == "no v1 signature":
        signature = sign(payload).replace("v1=", "v0=")
    response = post_payload(client, body, signature)
    assert response.status_code == 400
    assert nothing_stored()


@pytest.mark.parametrize(
    "body", ["not json at all", '{"id": ', "[]", "null", "42", "{}", '{"id": "evt_1"}']
)
def test_a_signed_body_that_is_not_an_event_is_refused(client, body):
    response = post_payload(client, body, sign(body))
    assert response.status_code == 400
    assert nothing_stored()


def test_a_body_that_is_not_utf8_is_refused(client):
    response = post_payload(client, b"\xff\xfe{}", sign("{}"))
    assert response.status_code == 400
    assert nothing_stored()


def test_only_post_reaches_the_webhook(client):
    assert client.get(reverse("billing:webhook")).status_code == 405


def test_the_webhook_needs_no_csrf_token(payload, club):
    strict = Client(enforce_csrf_checks=True)
    assert post_payload(strict, payload, sign(payload)).status_code == 200


def test_with_billing_off_the_webhook_does_not_exist(client, payload, billing_off):
    response = post_payload(client, payload, sign(payload))
    assert response.status_code == 404
    assert nothing_stored()
