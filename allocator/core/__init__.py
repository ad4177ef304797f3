"""What every game shares: reading files, errors, limits, exact numbers, violations, shipped data.

Data flows one way through the package: a file is read here (:mod:`allocator.core.reader`),
validated into a game's pydantic models (:mod:`allocator.core.validation`), and answered by a
game package under :mod:`allocator.games`. Nothing in ``core`` knows any game's rules.
"""
