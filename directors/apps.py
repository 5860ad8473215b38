from django.apps import AppConfig


class DirectorsConfig(AppConfig):
    """What directors do: uploads and importers, names, events, the club night, the roster
    screens, the settings and the audit log's sentences. It holds no models of its own."""

    name = "directors"
    default_auto_field = "django.db.models.BigAutoField"
