"""The organisation graph: every organisational question is a query here.

A force is a tree of units (battalion -> companies -> platoons); stands hang under their unit.
A leader commands the unit he belongs to; "his troops" are the stands in its subtree. A
crew-served weapon's *organisational unit* (docs/rules.md, rule 2a) is its company when
it belongs to a rifle company, the company's own HQ included; the battalion when it belongs to
the battalion HQ, the support company or an attached unit; and the whole force when no
company or battalion is above it (an attached unit at the top of the force's tree).

>>> from allocator.games.crossfire.schema import Unit
>>> g = OrgGraph([Unit(id="1bn", kind="battalion", units=[
...     Unit(id="1coy", kind="company", units=[Unit(id="1plt", kind="platoon"),
...                                            Unit(id="1hq", kind="hq")]),
...     Unit(id="mg", kind="support")]), Unit(id="arty", kind="attached")])
>>> [g.organisational_unit(u) for u in ("1plt", "1hq", "mg", "arty")]
['1coy', '1coy', '1bn', None]
>>> g.commands("1coy", "1plt"), g.commands("1plt", "1coy"), g.same_organisation("arty", "1plt")
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from allocator.games.crossfire.schema import Unit, UnitKind


class OrgGraph:
    """A forest of units as a networkx DiGraph (edges point from a unit to its sub-units)."""

    def __init__(self, units: Iterable[Unit]):
        self.graph = nx.DiGraph()
        for unit in units:
            self._add(unit, parent=None)
        self._ancestors = {
            node: frozenset(nx.ancestors(self.graph, node)) | {node} for node in self.graph
        }
        self._organisational_unit = {node: self._enclosing(node) for node in self.graph}

    def _add(self, unit: Unit, parent: str | None) -> None:
        self.graph.add_node(unit.id, kind=UnitKind(unit.kind))
        if parent is not None:
            self.graph.add_edge(parent, unit.id)
        for child in unit.units:
            self._add(child, unit.id)

    def __contains__(self, unit_id: str) -> bool:
        return unit_id in self.graph

    def kind(self, unit_id: str) -> UnitKind:
        return UnitKind(self.graph.nodes[unit_id]["kind"])

    def parent(self, unit_id: str) -> str | None:
        return next(iter(self.graph.predecessors(unit_id)), None)

    def commands(self, leader_unit: str, unit_id: str) -> bool:
        """Whether ``unit_id`` lies in the subtree of ``leader_unit`` (his own unit included)."""
        return leader_unit in self._ancestors[unit_id]

    def organisational_unit(self, unit_id: str) -> str | None:
        """The organisational unit of a crew-served weapon belonging to ``unit_id``.

        The nearest company above it (its own unit included), else the nearest battalion, else
        None: the whole force.
        """
        return self._organisational_unit[unit_id]

    def same_organisation(self, weapon_unit: str, unit_id: str) -> bool:
        """Whether ``unit_id`` lies in the organisational unit of a weapon of ``weapon_unit``."""
        scope = self.organisational_unit(weapon_unit)
        return scope is None or self.commands(scope, unit_id)

    def _enclosing(self, unit_id: str) -> str | None:
        above = [unit_id, *self._upwards(unit_id)]
        for kind in (UnitKind.company, UnitKind.battalion):
            found = next((node for node in above if self.kind(node) == kind), None)
            if found is not None:
                return found
        return None

    def _upwards(self, unit_id: str) -> list[str]:
        chain = []
        node = self.parent(unit_id)
        while node is not None:
            chain.append(node)
            node = self.parent(node)
        return chain
