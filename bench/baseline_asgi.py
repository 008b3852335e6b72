"""Today's production command before the split, kept for bench/load.py's comparison only:

    daphne --proxy-headers bench.baseline_asgi:application

one daphne process serving HTTP and websockets (config.asgi:application) with the settings of an
ordinary process: persistent connections (CONN_MAX_AGE=60), no pool. The settings load before
config.asgi, so it does not mark this process as the ASGI side, whose limits are what is compared.
Not for production.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from config.asgi import application  # noqa: E402, F401
