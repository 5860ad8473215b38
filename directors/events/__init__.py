"""Events: drafts and their details, results (files, pasted CSV, the grid), uploads,
publishing, corrections and the preview-then-confirm of every change to a published event,
with the event screens' forms, views and urls. It may import clubs' models, access, audit,
importers, grid keys, date notes, the names step and the roster's merging, and ladder's
changes, jobs, previews and exports. The club's page and rating settings stay in clubs/
(settings of the club, not of an event; a sixteenth module would pass the folder's 15).
"""
