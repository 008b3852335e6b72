from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"
    verbose_name = "Encounters"

    def ready(self):
        # The sheet's rolls default to the running encounter's numbers (a scene's target…):
        # combat offers them to characters, which knows nothing of combat.
        from characters.effects.clock import CLOCKS
        from characters.sheet.selectors import TABLE_NUMBER_SOURCES
        from combat.clock import CombatClock
        from combat.selectors import running_encounter_numbers

        if running_encounter_numbers not in TABLE_NUMBER_SOURCES:
            TABLE_NUMBER_SOURCES.append(running_encounter_numbers)
        # Effects' durations in rounds and turns run on the encounters' clock.
        if not CLOCKS:
            CLOCKS.append(CombatClock())
