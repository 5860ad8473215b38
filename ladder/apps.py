from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    default_auto_field = "django.db.models.BigAutoField"
