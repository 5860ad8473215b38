"""The directors' Grand Prix series screens (issue 38): the club's series, a new one, an edit,
a deletion, at manage/<slug>/series/….

The form reads what a person typed (a comma list of points, of rating bands) and refuses a
typing mistake on its field; every rule about the series itself (best N within the events,
no empty points list, only the club's published events, events or kinds and dates…) is
directors.series.save_series's, which the add_series command reaches without a form, so its
refusal (SeriesRefused) is shown on the form and nothing is stored.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.access import NOT_FOUND, AuthedRequest, club_for_director
from clubs.models import Club, Event, Series
from directors.series import SeriesRefused, delete_series, save_series
from ladder.seasons.dates import Season, season_of
from ladder.seasons.reading import event_counts

GAME_POINTS = "game"
BY_PLACE = "places"
DEFAULT_POINTS = "10, 8, 6, 5, 4, 3, 2, 1"


def _whole_numbers(text: str, message: str) -> list[int]:
    """ "10, 8, 6" -> [10, 8, 6]; an empty text is an empty list (the rules decide whether it
    may be); anything but whole numbers of zero or more is the field's error."""
    pieces = [piece.strip() for piece in text.replace(";", ",").split(",")]
    if pieces == [""]:
        return []
    if not all(piece.isdigit() for piece in pieces):
        raise forms.ValidationError(message)
    return [int(piece) for piece in pieces]


class SeriesForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name of the series"), max_length=100)
    slug = forms.SlugField(
        label=gettext_lazy("Short name"),
        max_length=40,
        help_text=gettext_lazy(
            "Part of the series' address: lower-case letters, digits and hyphens."
        ),
    )
    events = forms.TypedMultipleChoiceField(
        label=gettext_lazy("Events chosen one by one"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "Choose the events here, or leave them all unticked and give kinds and dates below."
        ),
    )
    kinds = forms.MultipleChoiceField(
        label=gettext_lazy("Or every published event of these kinds"),
        choices=Event.Kind.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    season = forms.ChoiceField(
        label=gettext_lazy("A whole season"),
        required=False,
        help_text=gettext_lazy("Or give the first and last day below."),
    )
    date_from = forms.DateField(
        label=gettext_lazy("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=gettext_lazy("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    scoring = forms.ChoiceField(
        label=gettext_lazy("Points"),
        choices=[
            (BY_PLACE, gettext_lazy("By final place, from the list below")),
            (GAME_POINTS, gettext_lazy("The player's game points in each event")),
        ],
        widget=forms.RadioSelect,
    )
    points = forms.CharField(
        label=gettext_lazy("Points for 1st, 2nd, 3rd …"),
        required=False,
        help_text=gettext_lazy(
            "Whole numbers separated by commas; a place past the list scores 0."
        ),
    )
    best = forms.IntegerField(
        label=gettext_lazy("Best results counted"),
        required=False,
        min_value=1,
        help_text=gettext_lazy("Leave empty to count every result."),
    )
    ties = forms.ChoiceField(label=gettext_lazy("Tied places"), choices=Series.Ties.choices)
    members_only = forms.BooleanField(
        label=gettext_lazy("Members only (players on the club's roster)"), required=False
    )
    min_events = forms.IntegerField(
        label=gettext_lazy("Events needed to be ranked"), min_value=0, initial=0
    )
    rating_bands = forms.CharField(
        label=gettext_lazy("Rating groups"),
        required=False,
        help_text=gettext_lazy(
            "The lowest rating of each group above the first, ascending and separated by "
            "commas (1200, 1600: below 1200, 1200 to 1599, 1600 and up); empty: one group."
        ),
    )

    by_section = forms.BooleanField(
        label=gettext_lazy("Or rank each section of a club night apart"),
        required=False,
        help_text=gettext_lazy(
            "A player is ranked in the section of most of their events (between equally "
            "many, the higher one), with all their results."
        ),
    )

    def __init__(self, data: Mapping[str, Any] | None, *, club: Club, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        events = Event.objects.published().filter(club=club).order_by("-date", "-order_in_day")
        labels = dict(Event.Kind.choices)
        field = self.fields["events"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = [
            (event.pk, f"{event.date.isoformat()} · {event.name} ({labels.get(event.kind, '')})")
            for event in events.only("id", "date", "name", "kind")
        ]
        self.seasons = _season_choices(club)
        season = self.fields["season"]
        assert isinstance(season, forms.ChoiceField)
        season.choices = [("", "—"), *((label, label) for label in self.seasons)]

    def clean(self) -> dict[str, Any]:
        """A season stands for its first and last day; it and dates together are refused."""
        data = super().clean() or {}
        label = data.get("season")
        if label:
            if data.get("date_from") or data.get("date_to"):
                raise forms.ValidationError(_("Give a season or the first and last day, not both."))
            chosen = self.seasons[label]
            data["date_from"], data["date_to"] = chosen.first_day, chosen.last_day
        return data

    def clean_points(self) -> list[int]:
        return _whole_numbers(
            self.cleaned_data["points"],
            _("Write the points as whole numbers separated by commas, such as 10, 8, 6."),
        )

    def clean_rating_bands(self) -> list[int]:
        return _whole_numbers(
            self.cleaned_data["rating_bands"],
            _("Write the ratings as whole numbers separated by commas, such as 1200, 1600."),
        )


def _season_choices(club: Club) -> dict[str, Season]:
    """The seasons a series may span, newest first: the next, the current and every season
    with an event."""
    current = season_of(timezone.localdate(), club.season_start_month)
    following = season_of(current.last_day + dt.timedelta(days=1), club.season_start_month)
    seasons = {following, current, *event_counts(club)}
    return {season.label: season for season in sorted(seasons, reverse=True)}


def _initial(series: Series) -> dict[str, object]:
    return {
        "name": series.name,
        "slug": series.slug,
        "events": [event.pk for event in series.events.all()],
        "kinds": series.kinds,
        "date_from": series.date_from,
        "date_to": series.date_to,
        "scoring": BY_PLACE if series.points else GAME_POINTS,
        "points": ", ".join(str(points) for points in series.points) or DEFAULT_POINTS,
        "best": series.best,
        "ties": series.ties,
        "members_only": series.members_only,
        "min_events": series.min_events,
        "rating_bands": ", ".join(str(band) for band in series.rating_bands),
        "by_section": series.by_section,
    }


NEW_SERIES = {
    "scoring": BY_PLACE,
    "points": DEFAULT_POINTS,
    "ties": Series.Ties.SHARE,
    "min_events": 0,
}


def series_list(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    rows = Series.objects.filter(club=club).order_by("-date_from", "name", "id")
    return render(request, "directors/series/list.html", {"club": club, "series_list": rows})


def series_new(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    return _form_page(request, club, None)


def series_edit(request: AuthedRequest, slug: str, series: str) -> HttpResponse:
    club = club_for_director(request, slug)
    return _form_page(request, club, _series(club, series))


@require_POST
def series_delete(request: AuthedRequest, slug: str, series: str) -> HttpResponse:
    club = club_for_director(request, slug)
    found = _series(club, series)
    delete_series(found, request.user)
    messages.success(request, _("The series “%(name)s” is deleted.") % {"name": found.name})
    return redirect("series_list", slug=club.slug)


def _series(club: Club, slug: str) -> Series:
    """The directed club's series of that slug; another club's is the same 404 as none."""
    found = Series.objects.filter(club=club, slug=slug).first()
    if found is None:
        raise Http404(NOT_FOUND)
    found.club = club
    return found


def _form_page(request: AuthedRequest, club: Club, series: Series | None) -> HttpResponse:
    if request.method == "POST":
        form = SeriesForm(request.POST, club=club)
        if form.is_valid():
            saved = _save(request, club, series, form)
            if saved is not None:
                messages.success(
                    request, _("The series “%(name)s” is saved.") % {"name": saved.name}
                )
                return redirect("series_list", slug=club.slug)
        status = 400
    else:
        form = SeriesForm(
            None, club=club, initial=NEW_SERIES if series is None else _initial(series)
        )
        status = 200
    return render(
        request,
        "directors/series/form.html",
        {"club": club, "series": series, "form": form},
        status=status,
    )


def _save(
    request: AuthedRequest, club: Club, series: Series | None, form: SeriesForm
) -> Series | None:
    """The series as the form gives it, or None with the refusal on the form (nothing stored)."""
    data = form.cleaned_data
    date_from: dt.date | None = data["date_from"]
    date_to: dt.date | None = data["date_to"]
    try:
        return save_series(
            club,
            series=series,
            slug=data["slug"],
            name=data["name"],
            event_ids=list(data["events"]) or None,
            kinds=list(data["kinds"]),
            date_from=date_from,
            date_to=date_to,
            points=None if data["scoring"] == GAME_POINTS else data["points"],
            best=data["best"],
            ties=data["ties"],
            members_only=data["members_only"],
            min_events=data["min_events"],
            rating_bands=data["rating_bands"],
            user=request.user,
            by_section=data["by_section"],
        )
    except SeriesRefused as refused:
        form.add_error(None, refused.message)
        return None
