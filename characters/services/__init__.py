"""Writes: each service is a keyword-only function `<entity>_<action>` that owns its transaction.

One module per feature: campaigns.py (campaigns, membership, accounts), characters.py
(builds, drafts, state, versions, rolls, homebrew), advancement.py (ledger, awards,
spend requests, review). Import from the module: `from characters.services.campaigns import campaign_create`.
"""
