"""cfalloc: close-combat allocation for miniature wargames.

The data flows one way: a scenario file is read (:mod:`allocator.core.reader`) into the pydantic
schema (:mod:`allocator.games.crossfire.schema`), then a battle over the organisation graph
(:mod:`allocator.games.crossfire.battle`, :mod:`allocator.games.crossfire.orgs`); the rules
(:mod:`allocator.games.crossfire.rules`), the CP-SAT model (:mod:`allocator.games.crossfire.model`)
and the search (:mod:`allocator.games.crossfire.search`) give the odds and the best lines, which
the command line (:mod:`allocator.cli`) and the web page (:mod:`allocator.web`) show.
``docs/architecture.md`` maps the whole house.
"""

__version__ = "0.1.0"
