"""`manage.py seed_demo`: a GM, two players and one campaign per ruleset, ready to click through.

Idempotent: running it again finds the same users and campaigns instead of making new ones
(and leaves passwords that someone changed alone unless --reset-passwords is given).
"""

from __future__ import annotations

import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from characters.campaigns import demo
from characters.campaigns.services import campaign_create, ruleset_name
from characters.models import Campaign, Membership
from rulesets.engine import registry

User = get_user_model()
DEFAULT_PASSWORD = "sheetforge-demo"  # shown on the console and in the README; demo data only
GM = "gm"
PLAYERS = ("player1", "player2")


class Command(BaseCommand):
    help = "Create the demo GM, players and one campaign per ruleset (idempotent) and print the logins."

    def add_arguments(self, parser):
        parser.add_argument(
            "--password",
            default=os.environ.get("DEMO_PASSWORD", DEFAULT_PASSWORD),
            help="password of the demo users (default: $DEMO_PASSWORD or %(default)r)",
        )
        parser.add_argument(
            "--reset-passwords", action="store_true", help="set the password even on users that exist already"
        )

    def handle(self, *args, password: str, reset_passwords: bool, **options):
        with transaction.atomic():
            gm = self._user(GM, password, reset_passwords)
            players = [self._user(name, password, reset_passwords) for name in PLAYERS]
            campaigns: dict[str, Campaign] = {}
            for slug in registry.SYSTEMS:
                name = f"Demo: {ruleset_name(slug)}"
                campaign = Campaign.objects.filter(gm=gm, ruleset=slug, name=name).first()
                if campaign is None:
                    campaign = campaign_create(gm=gm, name=name, ruleset=slug, settings=None)
                for player in players:
                    Membership.objects.get_or_create(
                        campaign=campaign, user=player, defaults={"role": Membership.Role.PLAYER}
                    )
                campaigns[slug] = campaign
        characters = demo.seed_demo_characters(gm=gm, players=players, campaigns=campaigns)
        # The GM reviews new characters in the demo campaigns (after the finished demo characters are in,
        # so they stay active): a GM trying the product sees the creation review. A GM who turned it
        # off keeps it off.
        for campaign in campaigns.values():
            if "approve_new_characters" not in (campaign.settings or {}):
                campaign.settings = {**(campaign.settings or {}), "approve_new_characters": True}
                campaign.save(update_fields=["settings"])

        self.stdout.write(
            self.style.SUCCESS(f"Demo ready: {len(campaigns)} campaigns, {len(characters)} characters.")
        )
        self.stdout.write("Log in at /accounts/login/ with:")
        self.stdout.write(f"  GM:      {GM} / {password}")
        for name in PLAYERS:
            self.stdout.write(f"  Player:  {name} / {password}")

    def _user(self, username: str, password: str, reset: bool):
        user, created = User.objects.get_or_create(username=username)
        if created or reset:
            user.set_password(password)
            user.save(update_fields=["password"])
        return user
