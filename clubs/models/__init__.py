"""The clubs app's models, every model the other apps share, one module per area: club.py
(users, clubs, roles and the clubs' ladders), players.py, events.py (events, entries, games),
records.py (merges, dismissed duplicates, the audit log), accounts.py (sign-in throttles,
links, invitations), uploads.py (a results file being read) and night.py (a club night's
rounds, boards and applied result taps), series.py (a Grand Prix over several events),
schedule.py (the events a club announces, and their dates), tokens.py (API tokens, the publish API's
idempotency keys); choices.py holds the club
night's choices. They import Django and the
clubs app's own vocabulary (clubs.results, clubs.labels, clubs.rating_policies), nothing above.
"""

# Every model is re-exported here, so `from clubs.models import X` reaches each of them, and
# importing this package registers them all with the clubs app. The helper functions stay
# here too, as the migrations name them (clubs.models.new_club_secret, ...).
from clubs.models.choices import REQUESTED_BYE_RESULTS as REQUESTED_BYE_RESULTS
from clubs.models.choices import ROUND_ROBINS as ROUND_ROBINS
from clubs.models.choices import FirstColour as FirstColour
from clubs.models.choices import MissedRounds as MissedRounds
from clubs.models.choices import PairingBye as PairingBye
from clubs.models.choices import PairingSystem as PairingSystem
from clubs.models.choices import RequestedBye as RequestedBye
from clubs.models.choices import byes_text as byes_text
from clubs.models.club import Club as Club
from clubs.models.club import ClubQuerySet as ClubQuerySet
from clubs.models.club import ClubRole as ClubRole
from clubs.models.club import Ladder as Ladder
from clubs.models.club import LadderQuerySet as LadderQuerySet
from clubs.models.club import NewcomerStart as NewcomerStart
from clubs.models.club import User as User
from clubs.models.club import UserManager as UserManager
from clubs.models.club import default_time_zone as default_time_zone
from clubs.models.club import new_club_secret as new_club_secret
from clubs.models.club import policy_choices as policy_choices
from clubs.models.events import Entry as Entry
from clubs.models.events import Event as Event
from clubs.models.events import EventQuerySet as EventQuerySet
from clubs.models.events import Game as Game
from clubs.models.events import new_share_token as new_share_token
from clubs.models.players import Player as Player
from clubs.models.players import PlayerAlias as PlayerAlias
from clubs.models.players import PlayerQuerySet as PlayerQuerySet

# isort: split
# Registered after the users, clubs, players and events, as before the split: the records of
# accounts, uploads, directors' decisions and the club night.
from clubs.models.accounts import ClubInvitation as ClubInvitation
from clubs.models.accounts import LoginThrottle as LoginThrottle
from clubs.models.accounts import SignInLink as SignInLink
from clubs.models.night import Board as Board
from clubs.models.night import BoardCode as BoardCode
from clubs.models.night import BoardReport as BoardReport
from clubs.models.night import Evening as Evening
from clubs.models.night import NeverPair as NeverPair
from clubs.models.night import NightTap as NightTap
from clubs.models.night import Round as Round
from clubs.models.records import AuditEntry as AuditEntry
from clubs.models.records import DuplicateDismissal as DuplicateDismissal
from clubs.models.records import Merge as Merge
from clubs.models.schedule import Occurrence as Occurrence
from clubs.models.schedule import ScheduleDate as ScheduleDate
from clubs.models.schedule import ScheduleEntry as ScheduleEntry
from clubs.models.schedule import ScheduleEntryQuerySet as ScheduleEntryQuerySet
from clubs.models.schedule import occurrences as occurrences
from clubs.models.series import Series as Series
from clubs.models.tokens import ApiToken as ApiToken
from clubs.models.tokens import ApiTokenQuerySet as ApiTokenQuerySet
from clubs.models.tokens import IdempotencyKey as IdempotencyKey
from clubs.models.uploads import Upload as Upload
