"""Crossfire in the registry: its resolver and its file formats and answers.

Crossfire has a command group of its own (``cfalloc check``, ``solve``, ``explain``,
``simulate``, ``play``, in :mod:`allocator.cli.crossfire`), so no ``cfalloc resolve`` command,
and its resolver answers with no details of its own.

>>> sorted(GAME.formats)[:2]
['check-answer', 'crossfire-profile']
"""

from __future__ import annotations

from allocator.core.game import Game

GAME = Game(
    name="crossfire",
    resolver="allocator.games.crossfire.resolver:CrossfireResolver",
    formats={
        "scenario": "allocator.games.crossfire.schema:Scenario",
        "organisation": "allocator.games.crossfire.schema:Organisation",
        "crossfire-profile": "allocator.games.crossfire.profile:Ruleset",
        "check-answer": "allocator.games.crossfire.answers:CheckAnswer",
        "solve-answer": "allocator.games.crossfire.answers:SolveAnswer",
        "explain-answer": "allocator.games.crossfire.answers:ExplainAnswer",
        "simulate-answer": "allocator.games.crossfire.answers:SimulateAnswer",
        "trials-answer": "allocator.games.crossfire.answers:TrialsAnswer",
        "play-answer": "allocator.games.crossfire.answers:PlayAnswer",
        "sweep-spec": "allocator.games.crossfire.sweep:SweepSpec",
        "sweep-line": "allocator.games.crossfire.sweep:SweepLine",
        "plan-answer": "allocator.games.crossfire.answers:PlanAnswer",
        "compare-answer": "allocator.games.crossfire.answers:CompareAnswer",
    },
)
