"""The sign-in backend's old dotted path, kept on purpose (issue 25 moved the code to
clubs/accounts/auth.py): every signed-in session stores "clubs.auth.ThrottledModelBackend"
(settings.AUTHENTICATION_BACKENDS), and Django signs out a session whose backend path is
no longer listed, so a new path would sign everybody out on the next deploy.
"""

from clubs.accounts.auth import ThrottledModelBackend as ThrottledModelBackend
