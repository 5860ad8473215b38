"""The clubs app's models, one module per area: club.py (users, clubs, roles), players.py,
events.py (events, entries, games) and records.py (merges, dismissed duplicates, the audit log);
they may import Django, clubs.night.choices and ladder's pure vocabulary, nothing that acts.
"""

# Every model is re-exported here, so `from clubs.models import X` reaches each of them, and
# importing this package registers them all with the clubs app. The helper functions stay
# here too, as the migrations name them (clubs.models.new_club_secret, ...).
from clubs.models.club import Club as Club
from clubs.models.club import ClubQuerySet as ClubQuerySet
from clubs.models.club import ClubRole as ClubRole
from clubs.models.club import NewcomerStart as NewcomerStart
from clubs.models.club import User as User
from clubs.models.club import UserManager as UserManager
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
from clubs.night.choices import ROUND_ROBINS as ROUND_ROBINS
from clubs.night.choices import FirstColour as FirstColour
from clubs.night.choices import PairingBye as PairingBye
from clubs.night.choices import PairingSystem as PairingSystem

# isort: split
# Registered after the users, clubs, players and events, as before the split: the records of
# accounts, uploads, directors' decisions and the club night (most live beside their code).
from clubs.accounts.models import ClubInvitation as ClubInvitation
from clubs.accounts.models import LoginThrottle as LoginThrottle
from clubs.accounts.models import SignInLink as SignInLink
from clubs.events.upload_models import Upload as Upload
from clubs.models.records import AuditEntry as AuditEntry
from clubs.models.records import DuplicateDismissal as DuplicateDismissal
from clubs.models.records import Merge as Merge
from clubs.night.models import Board as Board
from clubs.night.models import NeverPair as NeverPair
from clubs.night.models import Round as Round
