"""A club's seasons: dates and labels (dates) and the honours' rules (summary), pure Python; the
stored events and results a season reads (reading) and its page and command (report), which may
import clubs.models, ladder.models, ladder.performance and the page builders, never views.
"""
