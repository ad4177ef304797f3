"""The scenarios of issue 16's table: a garrison of two rifle squads, an HMG and a PC in a
3-capacity house against an attacker from a platoon to a battalion, every attacking leader
within one stand width of every attacking squad.

>>> case = attack_on_house("company")
>>> len(case["attacker"]["stands"]), len(case["defender"]["stands"])
(14, 4)
"""

from __future__ import annotations

from typing import Any

#: The attackers of the table, by name: (companies, platoons in each, with the company's HMG).
ATTACKERS: dict[str, tuple[int, int, bool]] = {
    "platoon": (1, 1, False),
    "two platoons": (1, 2, False),
    "company": (1, 3, True),
    "two companies": (2, 3, True),
    "battalion": (3, 3, True),
}


def _garrison(veteran: bool, pc_rating: int) -> dict[str, Any]:
    quality = "veteran" if veteran else "regular"
    return {
        "units": [
            {
                "id": "dcoy",
                "kind": "company",
                "units": [{"id": "dplt", "kind": "platoon"}],
            }
        ],
        "stands": [
            {"id": "d-sq1", "type": "rifle", "unit": "dplt", "quality": quality},
            {"id": "d-sq2", "type": "rifle", "unit": "dplt", "quality": quality},
            {"id": "d-hmg", "type": "hmg", "unit": "dcoy", "quality": quality},
            {"id": "d-pc", "type": "pc", "unit": "dplt", "rating": pc_rating, "quality": quality},
        ],
    }


def _attacker(
    companies: int, platoons: int, hmg: bool, leader_rating: int | None
) -> dict[str, Any]:
    pc, cc = (1, 2) if leader_rating is None else (leader_rating, leader_rating)
    units: list[dict[str, Any]] = []
    squads: list[dict[str, Any]] = []
    leaders: list[dict[str, Any]] = []
    for c in range(1, companies + 1):
        company = f"c{c}"
        units.append(
            {
                "id": company,
                "kind": "company",
                "units": [
                    {"id": f"{company}p{p}", "kind": "platoon"} for p in range(1, platoons + 1)
                ],
            }
        )
        for p in range(1, platoons + 1):
            platoon = f"{company}p{p}"
            squads += [
                {"id": f"{platoon}-sq{s}", "type": "rifle", "unit": platoon} for s in range(1, 4)
            ]
            leaders.append({"id": f"{platoon}-pc", "type": "pc", "unit": platoon, "rating": pc})
        leaders.append({"id": f"{company}-cc", "type": "cc", "unit": company, "rating": cc})
        if hmg:
            squads.append({"id": f"{company}-hmg", "type": "hmg", "unit": company})
    near = [s["id"] for s in squads if s["type"] == "rifle"]
    for leader in leaders:
        leader["near"] = near
    top = units if companies == 1 else [{"id": "bn", "kind": "battalion", "units": units}]
    return {"units": top, "stands": squads + leaders}


def attack_on_house(
    attacker: str, veteran: bool = False, pc_rating: int = 1, leader_rating: int | None = None
) -> dict[str, Any]:
    """The scenario of one row of the table, as the data of a scenario file."""
    companies, platoons, hmg = ATTACKERS[attacker]
    return {
        "title": f"A garrison of two squads, an HMG and a PC against {attacker}",
        "building": {"name": "House", "capacity": 3},
        "defender": _garrison(veteran, pc_rating),
        "attacker": _attacker(companies, platoons, hmg, leader_rating),
    }
