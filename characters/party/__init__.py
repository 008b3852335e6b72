"""The party: the GM's screen of a campaign (issue #22, CONTRACT.md "The GM's screen").

Every character in play with the ruleset's headline numbers, pools, effects, unspent points and
what waits for review; "who should roll" (every character's exact chance of one roll, the chance
that at least one succeeds and that all do); live over the campaign's websocket.
"""
