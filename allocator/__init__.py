"""cfalloc: close-combat allocation for miniature wargames.

The data flows one way: scenario file -> pydantic schema (:mod:`allocator.schema`) ->
organisation graph (:mod:`allocator.orgs`) -> rules (:mod:`allocator.rules`) and the CP-SAT
model (:mod:`allocator.model`) -> odds (:mod:`allocator.odds`) and game search
(:mod:`allocator.solve`) -> command line (:mod:`allocator.cli`) and web page
(:mod:`allocator.web`).
"""

__version__ = "0.1.0"
