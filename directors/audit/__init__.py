"""The audit log read as sentences for its page: "Anna changed Jan Jansen's family consent
from yes to no" (sentences.py), each value written as the form that changed it labels it
(values.py).
"""
