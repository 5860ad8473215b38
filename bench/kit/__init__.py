"""What the benches share, so each bench script reads as what it measures.

`machine` (the machine and load lines), `measure` (repeats, percentiles, Markdown tables),
`django_env` (settings, throwaway databases), `clubs` and `names` (the data), `servers` (gunicorn,
rq workers, an HTTP client). The kit imports the project and `tests.factories`, never a bench.
"""
