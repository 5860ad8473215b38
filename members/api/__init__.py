"""The read API under /api/v1/ (issue 37, part 3): the club, its ladders' standings, its
players and its published events as JSON, described by the OpenAPI schema it serves at
/api/v1/openapi.json. Built on django-ninja: the schemas are the answers' types.

Every answer is what the club's pages show, read by the same code (ladder.roster, the page
builders of members.pages, members.web.dated), behind the same door (clubs.access: an
outsider, a wrong secret and an unknown club are one 404) and kept by the same versions
(members.web.page_cache's key is the ETag). May import what members.web may, never its views.

- schemas.py   the answers' shapes (pydantic, through ninja.Schema)
- visits.py    who asks for which club, the inactive notice, ETags, 304s and Cache-Control
- reading.py   the answers' content, from the pages' own builders
- cors.py      cross-site reads by the sites the club lists (Club.embed_origins)
- routes.py    the NinjaAPI and its GET operations, each at c/<slug>/… and c/<slug>/s/<secret>/…
"""
