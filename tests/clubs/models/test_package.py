"""clubs.models is a package by area: every model of the clubs app is reached from it."""

from django.apps import apps

import clubs.models


def test_every_model_of_the_clubs_app_is_importable_from_clubs_models():
    registered = list(apps.get_app_config("clubs").get_models())
    assert len(registered) > 10
    for model in registered:
        assert getattr(clubs.models, model.__name__, None) is model, model.__name__
