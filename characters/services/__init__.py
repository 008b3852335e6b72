"""Writes: each service is a keyword-only function `<entity>_<action>` that owns its transaction.

One module per feature: campaigns.py (campaigns, membership, accounts), characters.py
(builds, drafts, versions, homebrew), play.py (play state, loadout, rolls), advancement.py
(awards, spend requests, review). Below them, used by those and importing none of them:
rules.py (the bridge to the rules service: a campaign's ruleset, validation with its house rules
and homebrew, the stored form of a build), ledger.py (every ledger row written) and versions.py
(every character version written). Import from the module:
`from characters.services.campaigns import campaign_create`. Errors: characters/errors.py.
"""
