"""The organisation graph: every organisational question is a query here.

A force is a tree of units (battalion -> companies -> platoons); stands hang under their unit.
A leader commands the unit he belongs to; "his troops" are the stands in its subtree.

>>> from allocator.games.crossfire.schema import Unit
>>> g = OrgGraph([Unit(id="1bn", kind="battalion", units=[
...     Unit(id="1coy", kind="company", units=[Unit(id="1plt", kind="platoon")]),
...     Unit(id="mg", kind="support")])])
>>> g.organisational_unit("1plt"), g.organisational_unit("mg")
('1coy', '1bn')
>>> g.commands("1coy", "1plt"), g.commands("1plt", "1coy")
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from allocator.games.crossfire.schema import Unit, UnitKind

#: Units whose crew-served weapons belong to the whole battalion (docs/rules.md, Organisation).
BATTALION_LEVEL = frozenset({UnitKind.support, UnitKind.hq, UnitKind.attached})


class OrgGraph:
    """A forest of units as a networkx DiGraph (edges point from a unit to its sub-units)."""

    def __init__(self, units: Iterable[Unit]):
        self.graph = nx.DiGraph()
        for unit in units:
            self._add(unit, parent=None)
        self._ancestors = {
            node: frozenset(nx.ancestors(self.graph, node)) | {node} for node in self.graph
        }
        self._organisational_unit = {node: _organisational_unit(self, node) for node in self.graph}

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

    def organisational_unit(self, unit_id: str) -> str:
        """The organisational unit of a crew-served weapon belonging to ``unit_id``.

        Its company when it belongs to a rifle company; the battalion when it belongs to the
        battalion HQ, the support company or an attached unit. Without either, the tree's root.
        """
        return self._organisational_unit[unit_id]

    def same_organisation(self, weapon_unit: str, unit_id: str) -> bool:
        """Whether ``unit_id`` lies in the organisational unit of a weapon of ``weapon_unit``."""
        return self.commands(self.organisational_unit(weapon_unit), unit_id)


def _organisational_unit(org: OrgGraph, unit_id: str) -> str:
    node: str | None = unit_id
    while node is not None:
        kind = org.kind(node)
        if kind == UnitKind.company:
            return node
        if kind in BATTALION_LEVEL:
            return _enclosing_battalion(org, node)
        node = org.parent(node)
    return _root(org, unit_id)


def _enclosing_battalion(org: OrgGraph, unit_id: str) -> str:
    node: str | None = unit_id
    while node is not None:
        if org.kind(node) == UnitKind.battalion:
            return node
        node = org.parent(node)
    return _root(org, unit_id)


def _root(org: OrgGraph, unit_id: str) -> str:
    node = unit_id
    while (up := org.parent(node)) is not None:
        node = up
    return node
