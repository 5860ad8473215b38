# Read by every gunicorn started from the project's directory (the image's command,
# compose, bench/): the access log leaves out the secrets some addresses carry.
logger_class = "config.access_log.SecretFreeLogger"
