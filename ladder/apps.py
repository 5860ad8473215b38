from django.apps import AppConfig
from django.db.models.signals import post_save


class LadderConfig(AppConfig):
    name = "ladder"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from clubs.models import Club
        from ladder.roster.ladders import club_saved

        # Every club has a first ladder, whichever code creates it.
        post_save.connect(club_saved, sender=Club, dispatch_uid="ladder.first_ladder")
