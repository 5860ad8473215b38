"""The directors' schedule screens (issue 37) at manage/<slug>/schedule/…: the club's scheduled
events and their coming dates, a new entry (one evening or weekly), an edit, a deletion, one
date cancelled or reinstated, and a date turned into the draft of its event.

The form reads what a person typed; every rule about an entry (lengths, kinds, how long a
weekly entry may run, which dates it has) is directors.schedule's, which the schedule_event
command reaches without a form, so its refusal (ScheduleRefused) is shown and nothing stored.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.access import NOT_FOUND, AuthedRequest, club_for_director
from clubs.models import Club, Event, ScheduleEntry, occurrences
from directors.schedule import (
    ScheduleRefused,
    cancel_date,
    delete_entry,
    reinstate_date,
    save_entry,
    start_draft,
)

# The list shows dates from a fortnight back (a draft is often started after the evening)
# up to this many dates ahead.
DAYS_BACK = 14
DATES_SHOWN = 60


class ScheduleForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy("For a weekly event, its first date."),
    )
    start_time = forms.TimeField(
        label=gettext_lazy("Start time"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=gettext_lazy("In the club's time zone (club page settings)."),
    )
    place = forms.CharField(label=gettext_lazy("Place"), max_length=120, required=False)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=Event.Kind.choices)
    notes = forms.CharField(
        label=gettext_lazy("Notes"), max_length=1000, required=False, widget=forms.Textarea
    )
    weekly = forms.BooleanField(label=gettext_lazy("Every week"), required=False)
    weekly_until = forms.DateField(
        label=gettext_lazy("Every week until"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy("The last date it may fall on; two years at most."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("weekly") and not data.get("weekly_until"):
            self.add_error("weekly_until", _("Give the last date of the weekly event."))
        if not data.get("weekly"):
            data["weekly_until"] = None
        return data


class CancelForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200, required=False)


def schedule_list(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    entries = list(ScheduleEntry.objects.filter(club=club).order_by("date", "start_time", "id"))
    for entry in entries:
        entry.club = club
    today = timezone.localdate()
    dates = occurrences(entries, first=today - dt.timedelta(days=DAYS_BACK))[:DATES_SHOWN]
    return render(
        request,
        "directors/schedule/list.html",
        {"club": club, "entries": entries, "dates": dates, "today": today},
    )


def schedule_new(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    return _form_page(request, club, None)


def schedule_edit(request: AuthedRequest, slug: str, schedule_id: int) -> HttpResponse:
    club = club_for_director(request, slug)
    return _form_page(request, club, _entry(club, schedule_id))


@require_POST
def schedule_delete(request: AuthedRequest, slug: str, schedule_id: int) -> HttpResponse:
    club = club_for_director(request, slug)
    found = _entry(club, schedule_id)
    delete_entry(found, request.user)
    messages.success(request, _("“%(name)s” is off the schedule.") % {"name": found.name})
    return redirect("schedule_list", slug=club.slug)


@require_POST
def schedule_cancel(request: AuthedRequest, slug: str, schedule_id: int, day: str) -> HttpResponse:
    club = club_for_director(request, slug)
    found, date = _entry(club, schedule_id), _day(day)
    form = CancelForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(error) for error in form.errors["reason"]))
        return redirect("schedule_list", slug=club.slug)
    try:
        cancel_date(found, date, form.cleaned_data["reason"], request.user)
    except ScheduleRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            _("%(name)s on %(date)s is cancelled.")
            % {"name": found.name, "date": _shown_date(date)},
        )
    return redirect("schedule_list", slug=club.slug)


@require_POST
def schedule_reinstate(
    request: AuthedRequest, slug: str, schedule_id: int, day: str
) -> HttpResponse:
    club = club_for_director(request, slug)
    found, date = _entry(club, schedule_id), _day(day)
    try:
        reinstate_date(found, date, request.user)
    except ScheduleRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            _("%(name)s on %(date)s takes place.")
            % {"name": found.name, "date": _shown_date(date)},
        )
    return redirect("schedule_list", slug=club.slug)


@require_POST
def schedule_start_draft(
    request: AuthedRequest, slug: str, schedule_id: int, day: str
) -> HttpResponse:
    """The draft of the evening: then the usual screens (upload, grid, club night)."""
    club = club_for_director(request, slug)
    found, date = _entry(club, schedule_id), _day(day)
    try:
        event = start_draft(found, date, request.user)
    except ScheduleRefused as refused:
        messages.error(request, refused.message)
        return redirect("schedule_list", slug=club.slug)
    messages.success(request, _("The draft of “%(name)s” is ready.") % {"name": event.name})
    return redirect("event_detail", slug=club.slug, event_id=event.pk)


def _entry(club: Club, schedule_id: int) -> ScheduleEntry:
    """The directed club's entry; another club's is the same 404 as none."""
    found = ScheduleEntry.objects.filter(club=club, pk=schedule_id).first()
    if found is None:
        raise Http404(NOT_FOUND)
    found.club = club
    return found


def _day(text: str) -> dt.date:
    """A date in an address (YYYY-MM-DD); anything else is a 404, as an unknown date."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Http404(NOT_FOUND) from None


def _shown_date(day: dt.date) -> str:
    return date_format(day, "DATE_FORMAT")


def _initial(entry: ScheduleEntry) -> dict[str, Any]:
    return {
        "name": entry.name,
        "date": entry.date,
        "start_time": entry.start_time,
        "place": entry.place,
        "kind": entry.kind,
        "notes": entry.notes,
        "weekly": entry.is_weekly,
        "weekly_until": entry.weekly_until,
    }


def _form_page(request: AuthedRequest, club: Club, entry: ScheduleEntry | None) -> HttpResponse:
    if request.method == "POST":
        form = ScheduleForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                saved = save_entry(
                    club,
                    entry=entry,
                    name=data["name"],
                    date=data["date"],
                    start_time=data["start_time"],
                    place=data["place"],
                    kind=data["kind"],
                    notes=data["notes"],
                    weekly_until=data["weekly_until"],
                    user=request.user,
                )
            except ScheduleRefused as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(request, _("“%(name)s” is scheduled.") % {"name": saved.name})
                return redirect("schedule_list", slug=club.slug)
        status = 400
    else:
        initial = {"kind": Event.Kind.STANDARD} if entry is None else _initial(entry)
        form = ScheduleForm(initial=initial)
        status = 200
    return render(
        request,
        "directors/schedule/form.html",
        {"club": club, "entry": entry, "form": form},
        status=status,
    )
