"""Crossfire behind the resolver interface every game offers.

``check`` reports the broken rules of a scenario's allocation; ``resolve`` gives the exact
outcomes of the round of a complete, legal allocation (``cfalloc check`` prints the same odds).

>>> from allocator.core.library import folder
>>> from allocator.core.reader import read_file
>>> from allocator.games.crossfire.schema import Scenario
>>> path = folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"
>>> scenario = Scenario.model_validate(read_file(path))
>>> CrossfireResolver().resolve(scenario).distribution["attacker wins every combat"]
Fraction(65, 88)
"""

from __future__ import annotations

from allocator.core.resolution import Resolution
from allocator.core.violations import Violation
from allocator.games.crossfire.battle import battle_from_scenario
from allocator.games.crossfire.schema import Scenario


class CrossfireResolver:
    """The Crossfire close combat of one round, as a resolver."""

    name = "crossfire"
    engagement_model = Scenario

    def check(self, engagement: Scenario) -> list[Violation]:
        from allocator.games.crossfire.rules import check

        return check(battle_from_scenario(engagement))

    def resolve(self, engagement: Scenario) -> Resolution:
        from allocator.games.crossfire.check import check_battle
        from allocator.games.crossfire.words import combat_sentence

        answer = check_battle(battle_from_scenario(engagement))
        distribution = {}
        steps = []
        if answer.odds is not None:
            distribution["attacker wins every combat"] = answer.odds.sweep.exact
            for outcome in answer.odds.outcomes:
                key = (
                    f"defender loses {outcome.defender_losses}, "
                    f"attacker loses {outcome.attacker_losses}"
                )
                distribution[key] = outcome.p_exact
            steps = [combat_sentence(c) for c in answer.odds.combats]
        return Resolution(self.name, distribution, steps, answer.violations)
