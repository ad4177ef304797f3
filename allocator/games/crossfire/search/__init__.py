"""The game search: the best line of play for either side, exactly.

The game of a round is *min over the defender's groupings of max over the attacker's answers of
min over the defender's reallocations*; values are always from the attacker's side, and the
whole fight (``take``) chains the rounds. :mod:`.solve` is the front door: it enumerates
first, and turns to CP-SAT beyond the enumeration's bounds. The parts:

* the enumeration: :mod:`.classes` (interchangeable stands, searched once, and the states of a
  fight as counts per class), :mod:`.enumeration` (every legal grouping, attack and
  reallocation of a state, by class, and the odds table), :mod:`.engine` (float values of every
  line and state, then exact fractions for the chosen ones) and :mod:`.game` (the first round
  solved for one side: the best line, its equals, the runner-up, the fight's statistics, and
  bounds when the time limit stops it);
* CP-SAT: :mod:`.symmetry` (interchangeable stands in the model), :mod:`.rivals` (the exact
  optimum of a model whose objective is scaled), :mod:`.stages` (the stages of the game),
  :mod:`.runner` (every call under one budget) and :mod:`.choices` (alternatives and the
  runner-up);
* :mod:`.lines`: a line of play and its exact value under an objective.

Results are data (:class:`.solve.SolveOutcome`); the words about them live in
:mod:`allocator.games.crossfire.words`.
"""
