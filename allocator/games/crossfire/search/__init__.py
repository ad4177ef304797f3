"""The game search: the best line of play for either side, exactly.

The game is *min over the defender's groupings of max over the attacker's answers of min over
the defender's reallocations*; values are always from the attacker's side. The parts:

* :mod:`.lines`: a line of play and its exact value under an objective;
* :mod:`.symmetry`: which stands are interchangeable, so that no symmetric choice is searched
  twice;
* :mod:`.rivals`: the exact optimum of a CP-SAT model whose objective is scaled (every rival
  within the rounding slack is compared as fractions);
* :mod:`.stages`: the stages of the game with CP-SAT (groupings, the attacker's answer, the
  defender's reallocation);
* :mod:`.choices`: the alternatives of equal value and the runner-up of the deciding side;
* :mod:`.solve`: the search as a whole, with its budget; its result is data
  (:class:`.solve.SolveOutcome`), and the words about it live in
  :mod:`allocator.games.crossfire.words`.
"""
