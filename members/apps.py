from django.apps import AppConfig


class MembersConfig(AppConfig):
    """What members (and anyone the club lets in) read: the club's pages, their downloads,
    wall charts, seasons and the live page. It holds no models of its own."""

    name = "members"
    default_auto_field = "django.db.models.BigAutoField"
