"""The directors' club page settings: visibility, names, language, and a new secret link."""

from __future__ import annotations

from typing import Any, ClassVar
from zoneinfo import available_timezones

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.dates import MONTHS
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs import audit
from clubs.access import AuthedRequest, club_for_director, club_page_path
from clubs.embed_origins import MOST_ORIGINS, BadOrigin, parse_origins
from clubs.models import Club, NewcomerStart, byes_text
from directors.night.forms import ByesForm, TiebreakOrderForm
from ladder.changes import OnPages, club_changed
from members.pages.events.event_pages import club_order


class PageSettingsForm(forms.ModelForm):
    # Not required: a form sent without it (an older page) keeps the club's setting.
    newcomer_start = forms.ChoiceField(
        label=gettext_lazy("New players from a results file start"),
        choices=NewcomerStart.choices,
        required=False,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "The upload screen's default; each upload and import_event may choose otherwise. "
            "New players stay provisional until they have played their first rated games."
        ),
    )

    # Not required either, for the same reason; a month outside 1-12 is refused.
    season_start_month = forms.TypedChoiceField(
        label=gettext_lazy("The club's season starts in"),
        choices=MONTHS.items(),
        coerce=int,
        required=False,
        help_text=gettext_lazy(
            "Each season runs from the first of this month for a year and has its own page. "
            "Seasons starting in January are named by their year (2026), others by the two "
            "years they span (2025-26)."
        ),
    )

    # Not required either; a name the zone database lacks is refused.
    time_zone = forms.ChoiceField(
        label=gettext_lazy("The club's time zone"),
        choices=lambda: [(name, name) for name in sorted(available_timezones())],
        required=False,
        help_text=gettext_lazy(
            "The schedule's start times are in this time zone, and the club's calendar says so."
        ),
    )

    # Not required either: a form without it keeps the club's setting.
    board_reports = forms.ChoiceField(
        label=gettext_lazy("Results reported at the board"),
        choices=[
            ("on", gettext_lazy("On: players report with the code on their result slip")),
            ("off", gettext_lazy("Off: only the director enters results")),
        ],
        required=False,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "The club nights' default; each evening may say otherwise on its own page."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial["board_reports"] = "on" if self.instance.board_reports else "off"

    class Meta:
        model = Club
        fields: ClassVar[list[str]] = [
            "visibility",
            "name_display",
            "language",
            "newcomer_start",
            "season_start_month",
            "time_zone",
            "board_reports",
        ]
        labels: ClassVar[dict[str, Any]] = {
            "visibility": gettext_lazy("Who can see the club page"),
            "name_display": gettext_lazy("Names on the club page"),
            "language": gettext_lazy("Language of the club page"),
        }
        help_texts: ClassVar[dict[str, Any]] = {
            "name_display": gettext_lazy(
                "Juniors are shown with initials unless their family agreed to full names. "
                "Directors always see full names."
            ),
            "language": gettext_lazy(
                "Visitors who chose a language, or whose browser asks for one we offer, see "
                "that one instead."
            ),
        }
        widgets: ClassVar[dict[str, Any]] = {"visibility": forms.RadioSelect}

    def clean_newcomer_start(self) -> str:
        return str(self.cleaned_data["newcomer_start"] or self.instance.newcomer_start)

    def clean_season_start_month(self) -> int:
        month = self.cleaned_data["season_start_month"]
        return int(month) if month not in (None, "") else self.instance.season_start_month

    def clean_time_zone(self) -> str:
        return str(self.cleaned_data["time_zone"] or self.instance.time_zone)

    def clean_board_reports(self) -> bool:
        chosen = self.cleaned_data["board_reports"]
        return chosen == "on" if chosen else bool(self.instance.board_reports)


class EmbedOriginsForm(forms.Form):
    """The websites allowed to frame the club's embeds and read its API from a browser."""

    origins = forms.CharField(
        label=gettext_lazy("Websites that may show the club's embeds"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy(
            "One address a line, the start of the website only, for example "
            "https://www.example.org. Leave it empty to allow no other website."
        ),
    )

    def clean_origins(self) -> list[str]:
        try:
            return parse_origins(self.cleaned_data["origins"])
        except BadOrigin as error:
            raise forms.ValidationError(_origin_message(error)) from error


def _origin_message(error: BadOrigin) -> str:
    if error.reason == "too_many":
        return _("List at most %(most)d websites.") % {"most": MOST_ORIGINS}
    if error.reason == "path":
        message = _("%(origin)s: give the website's start only, without a path.")
    elif error.reason == "scheme":
        message = _(
            "%(origin)s: the address must start with https:// (http:// only for localhost)."
        )
    else:
        message = _("%(origin)s is not a website's address.")
    return message % {"origin": error.text}


def embed_snippets(request: HttpRequest, club: Club, page_path: str) -> list[tuple[str, str]]:
    """Each embed's name and the iframe a club's webmaster copies onto their site: at the
    club page's address as its visitors reach it (the secret link for an unlisted club)."""
    heights = {"embed/ladder/?top=10": 420, "embed/schedule/": 320}
    names = {
        "embed/ladder/?top=10": _("The top 10 of the ladder"),
        "embed/schedule/": _("The upcoming events"),
    }
    snippets = []
    for suffix, height in heights.items():
        url = request.build_absolute_uri(f"{page_path}{suffix}")
        title = f"{club.name}: {names[suffix]}"
        snippets.append(
            (
                names[suffix],
                f'<iframe src="{escape(url)}" title="{escape(title)}" loading="lazy" '
                f'style="border:0;width:100%;height:{height}px"></iframe>',
            )
        )
    return snippets


def club_settings(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    before = {name: getattr(club, name) for name in PageSettingsForm.Meta.fields}
    page_path = club_page_path(club)
    form = PageSettingsForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        changes = {
            name: [before[name], form.cleaned_data[name]]
            for name in form.changed_data
            if before[name] != form.cleaned_data[name]
        }
        if changes:
            with transaction.atomic():
                # Only the changed columns: a whole-row save would write back the versions
                # and replay marks read at the start of the request over a newer replay's.
                form.save(commit=False).save(update_fields=list(changes))
                audit.record(club, request.user, "page_settings.changed", changes=changes)
                if "time_zone" in changes:
                    # The schedule's times and the calendar feed read it: kept pages retire.
                    club_changed(club.pk, OnPages())
        messages.success(request, _("The club page settings are saved."))
        return redirect("club_settings", slug=club.slug)
    return render(
        request,
        "directors/club_settings.html",
        {
            "club": club,
            "form": form,
            "page_path": page_path,
            "tiebreak_form": TiebreakOrderForm(current=tuple(club_order(club))),
            "byes_form": ByesForm(
                initial={"byes": list(club.requestable_byes), "missed": club.missed_rounds}
            ),
            "embed_form": EmbedOriginsForm(initial={"origins": "\n".join(club.embed_origins)}),
            "embed_snippets": embed_snippets(request, club, page_path),
        },
    )


@require_POST
def embed_origins(request: AuthedRequest, slug: str) -> HttpResponse:
    """The websites allowed to frame the club's embeds (and read its API from a browser)."""
    club = club_for_director(request, slug)
    form = EmbedOriginsForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(error) for error in form.errors["origins"]))
        return redirect(f"{reverse('club_settings', kwargs={'slug': club.slug})}#embeds")
    old, new = list(club.embed_origins), form.cleaned_data["origins"]
    if new != old:
        with transaction.atomic():
            Club.objects.filter(pk=club.pk).update(embed_origins=new)
            audit.record(club, request.user, "embed_origins.changed", old=old, new=new)
            # The embeds' headers are read anew on every answer, but kept pages and the
            # API's ETags retire too: a browser holding a page revalidates against the list.
            club_changed(club.pk, OnPages())
    messages.success(request, _("The websites that may show the club's embeds are saved."))
    return redirect(f"{reverse('club_settings', kwargs={'slug': club.slug})}#embeds")


@require_POST
def tiebreak_order(request: AuthedRequest, slug: str) -> HttpResponse:
    """The order of the tie-breaks in every standings of the club (club nights and events)."""
    club = club_for_director(request, slug)
    current = tuple(club_order(club))
    old = [t.value for t in current]
    form = TiebreakOrderForm(request.POST, current=current)
    if not form.is_valid():
        # A repeat is the one refusal the page's lists allow; anything else is a forged form.
        errors = [str(e) for e in form.non_field_errors()]
        messages.error(request, errors[0] if errors else _("Choose the tie-breaks from the lists."))
        return redirect("club_settings", slug=club.slug)
    new = [t.value for t in form.order]
    if new != old:
        with transaction.atomic():
            Club.objects.filter(pk=club.pk).update(tiebreak_order=new)
            audit.record(club, request.user, "tiebreak_order.changed", old=old, new=new)
            # Standings show the new order at once (ranked live until every event's kept
            # standings are ranked again); no rating changes.
            club_changed(club.pk, OnPages(tiebreak_order=True))
    messages.success(request, _("The order of the tie-breaks is saved."))
    return redirect("club_settings", slug=club.slug)


@require_POST
def night_bye_settings(request: AuthedRequest, slug: str) -> HttpResponse:
    """The club nights' byes: which a player may ask for (each evening starts with these)
    and what a late entrant's missed rounds score by default."""
    club = club_for_director(request, slug)
    form = ByesForm(request.POST)
    back = f"{reverse('club_settings', kwargs={'slug': club.slug})}#byes"
    if not form.is_valid():
        errors = form.errors.get("byes") or form.errors.get("missed")
        messages.error(request, str(errors[0]) if errors else _("Choose the byes from the list."))
        return redirect(back)
    old = {"byes": club.requestable_byes, "missed": club.missed_rounds}
    new = {
        "byes": byes_text(form.cleaned_data["byes"]),
        "missed": form.cleaned_data["missed"] or club.missed_rounds,
    }
    if new != old:
        with transaction.atomic():
            Club.objects.filter(pk=club.pk).update(
                requestable_byes=new["byes"], missed_rounds=new["missed"]
            )
            audit.record(
                club, request.user, "bye_settings.changed", old=old["byes"], new=new["byes"],
                missed=[old["missed"], new["missed"]],
            )  # fmt: skip
    messages.success(request, _("The club nights' byes are saved."))
    return redirect(back)


@require_POST
def rotate_secret(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    with transaction.atomic():
        club.rotate_secret()
        # The secret itself is never written to the log.
        audit.record(club, request.user, "club_secret.rotated")
    messages.success(
        request, _("The club page has a new secret link. The old link no longer works.")
    )
    return redirect("club_settings", slug=club.slug)
