#!/usr/bin/env python
"""Django's command line, with one decision of its own: which commands may start without a SECRET_KEY.

The production check (config/settings.py) stops any process that loads the settings with DEBUG off
and no SECRET_KEY of 50+ characters: gunicorn and daphne (config.wsgi, config.asgi), ``runserver``,
``check --deploy``, ``migrate``, ``shell``: whatever serves, signs or touches user data. It fails
closed: an entry point nobody thought of refuses too.

A few commands sign nothing and serve nothing, and must answer in a fresh checkout with an empty
environment (CONTRACT.md "Doors": no server, no database and no configuration): the rules CLI, and
the help a newcomer asks for first. Those are named here, by the command the user typed, and only
this process is told (``config.env.secret_key_not_needed``, a flag in memory: nothing in the
environment can switch the check off, and nothing inherits it). Without a key, their settings'
SECRET_KEY stays empty, so that anything that would sign with it still fails (Django refuses an
empty key when it is read).

A value in the environment that cannot be used (config/env.py: no key with DEBUG off, ``DEBUG=maybe``)
is reported as its one-paragraph message and exit code 1, not a traceback (``--traceback`` shows it).
"""

import os
import sys

#: Commands that run without a SECRET_KEY (and say so in their own help): they neither serve nor sign.
NO_SECRET_COMMANDS = frozenset({"rules", "help", "version", "--help", "-h", "--version"})


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    command = sys.argv[1] if len(sys.argv) > 1 else "help"
    if command in NO_SECRET_COMMANDS:
        from config.env import secret_key_not_needed

        secret_key_not_needed()
    from django.core.management import execute_from_command_line

    from config.env import ImproperlyConfigured

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:  # an environment value we cannot use: its message, not a traceback
        if "--traceback" in sys.argv:
            raise
        sys.stderr.write(f"ImproperlyConfigured: {exc}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
