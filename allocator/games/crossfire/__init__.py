"""Crossfire close combat in a building: the rules, the exact odds, the search, the whole fight.

Data flows one way: a scenario file is validated (:mod:`.schema`) and resolved into a battle
with its organisation graphs (:mod:`.battle`, :mod:`.orgs`, :mod:`.profile`); the rules
(:mod:`.rules`, one module per family) check it and build the CP-SAT model (:mod:`.model`);
the odds (:mod:`.odds`, :mod:`.cp_odds`) and the search (:mod:`.search`) find the best lines;
:mod:`.service` answers the command line (:mod:`allocator.cli.crossfire`) and the web page with
the typed answers of :mod:`.answers`, in the words of :mod:`.words`.
"""
