"""In-limit files crafted to make the search work hard (issue 20's table), written on demand.

None of them is over a documented limit (at most 120 stands a side, nesting within the default
depth), so every command must answer them within its time limit: the best line found, or exit 3.
``CRAFTED`` names each shape; :func:`write` puts one in a folder. The hostile tests and
``bench/bench_hostile.py`` both use them, so the files are never committed at size.

>>> len(CRAFTED), 'own-units-6-v-8' in CRAFTED
(7, True)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

#: A unit and the list of its children are two levels of a file; the scenario, its side and
#: the side's list of units three more: this many units deep stays within the default depth.
DEEPEST_CHAIN = 14


def stands(prefix: str, count: int, unit: Callable[[int], str], kinds: list[str]) -> str:
    return "\n".join(
        f"    - {{id: {prefix}{i}, type: {kinds[i % len(kinds)]}, unit: {unit(i)}}}"
        for i in range(count)
    )


def flat_units(prefix: str, count: int, kind: str = "platoon") -> str:
    return ", ".join(f"{{id: {prefix}{i}, kind: {kind}}}" for i in range(count))


def scenario(title: str, capacity: int, defender: str, attacker: str) -> str:
    return (
        f"title: {title}\nbuilding: {{name: Crafted house, capacity: {capacity}}}\n"
        f"defender:\n{defender}\nattacker:\n{attacker}\n"
    )


def one_platoon(prefix: str, count: int) -> str:
    return f"  units: [{{id: {prefix}p, kind: platoon}}]\n  stands:\n" + stands(
        prefix, count, lambda i: f"{prefix}p", ["smg", "rifle", "rifle"]
    )


def each_in_its_own_unit(prefix: str, count: int) -> str:
    return f"  units: [{flat_units(prefix + 'u', count)}]\n  stands:\n" + stands(
        prefix, count, lambda i: f"{prefix}u{i}", ["smg", "rifle", "rifle"]
    )


def fo_units() -> str:
    """6 rifles against 8 squads, a CC and 40 FOs, each FO in a unit of its own."""
    attacker = (
        "  units:\n    - id: coy\n      kind: company\n"
        f"      units: [{{id: q, kind: platoon}}, {flat_units('fu', 40, 'attached')}]\n"
        "  stands:\n"
        + stands("a", 8, lambda i: "q", ["rifle", "smg"])
        + "\n    - {id: cc, type: cc, unit: coy, rating: 1}\n"
        + stands("fo", 40, lambda i: f"fu{i}", ["fo"])
    )
    return scenario("6 v 8 squads, a CC and 40 FOs", 6, one_platoon("d", 6), attacker)


def distinct() -> str:
    """8 v 8, no two stands alike: each of its own type, unit, quality and suppression."""
    kinds = ["rifle", "smg", "engineer", "hmg", "jhmg", "mortar", "gun", "rifle"]
    qualities = ["green", "regular", "veteran"]

    def side(prefix: str) -> str:
        rows = [
            f"    - {{id: {prefix}{i}, type: {kinds[i]}, unit: {prefix}u{i}, "
            f"quality: {qualities[i % 3]}, suppressed: {'true' if i % 2 else 'false'}}}"
            for i in range(8)
        ]
        return f"  units: [{flat_units(prefix + 'u', 8)}]\n  stands:\n" + "\n".join(rows)

    return scenario("8 v 8, every stand distinct", 8, side("d"), side("a"))


def chain() -> str:
    """119 stands a side in a chain of nested units, as deep as the default limit allows."""

    def nested(prefix: str) -> str:
        text = ""
        for i in reversed(range(DEEPEST_CHAIN)):
            text = f"{{id: {prefix}{i}, kind: platoon" + (f", units: [{text}]}}" if text else "}")
        return text

    def side(prefix: str) -> str:
        return f"  units: [{nested(prefix + 'u')}]\n  stands:\n" + stands(
            prefix, 119, lambda i: f"{prefix}u{i % DEEPEST_CHAIN}", ["rifle", "smg", "rifle"]
        )

    return scenario("A chain of nested units", 100, side("d"), side("a"))


def shaped(
    defenders: int,
    attackers: int,
    fos: int = 0,
    snipers: int = 0,
    leaders: int = 0,
    own_units: bool = False,
    chain: int = 1,
) -> str:
    """A file of the given shape: squads a side, the attacker's FOs and leaders (PCs rated 1 and
    a CC), the defender's snipers; every stand in a unit of its own, or the units nested
    ``chain`` deep (at most ``DEEPEST_CHAIN``).

    >>> text = shaped(3, 4, fos=2, snipers=1, leaders=2, chain=3)
    >>> text.count("type: fo"), text.count("type: sniper"), text.count("type: pc")
    (2, 1, 1)
    """

    def side(prefix: str, kinds: list[str]) -> str:
        count = len(kinds)
        if own_units:
            units = flat_units(prefix + "u", count)

            def unit(i: int) -> str:
                return f"{prefix}u{i}"
        else:
            depth = max(1, min(chain, DEEPEST_CHAIN))
            units = ""
            for i in reversed(range(depth)):
                units = f"{{id: {prefix}u{i}, kind: platoon" + (
                    f", units: [{units}]}}" if units else "}"
                )

            def unit(i: int) -> str:
                return f"{prefix}u{i % depth}"

        rows = []
        for i, kind in enumerate(kinds):
            rating = ", rating: 1" if kind in ("pc", "cc") else ""
            rows.append(f"    - {{id: {prefix}{i}, type: {kind}, unit: {unit(i)}{rating}}}")
        return f"  units: [{units}]\n  stands:\n" + "\n".join(rows)

    squads = ["rifle", "smg", "rifle"]
    defender = [squads[i % 3] for i in range(defenders)] + ["sniper"] * snipers
    heads = ["cc"] + ["pc"] * (leaders - 1) if leaders else []
    attacker = [squads[i % 3] for i in range(attackers)] + ["fo"] * fos + heads
    return scenario(
        "A drawn shape",
        max(1, min(100, defenders + snipers)),
        side("d", defender),
        side("a", attacker),
    )


def pooled_battalion(defenders: int = 8, squads: int = 80, platoons: int = 30) -> str:
    """Pool dice (one die a stand) against a battalion's squads and every leader near every
    squad: the exact odds' denominators are powers of 6 up to 6^90, whose common multiple (a
    number of thousands of digits) once took 14 s in one call that no budget could stop.

    >>> text = pooled_battalion(3, 4, 2)
    >>> text.count("type: pc"), "dice_mode: pool" in text
    (2, True)
    """
    near = ", ".join(f"a{i}" for i in range(squads))
    kinds, qualities = ["rifle", "hmg", "smg"], ["green", "regular", "veteran"]
    garrison = "\n".join(
        f"    - {{id: d{i}, type: {kinds[i % 3]}, unit: dp{i}, quality: {qualities[i % 3]}}}"
        for i in range(defenders)
    )
    units = ", ".join(f"{{id: dp{i}, kind: platoon}}" for i in range(defenders))
    assault = "\n".join(
        f"    - {{id: a{i}, type: {['rifle', 'smg', 'engineer'][i % 3]}, unit: ap{i % platoons}, "
        f"quality: {qualities[i % 3]}, suppressed: {str(i % 4 == 0).lower()}}}"
        for i in range(squads)
    )
    leaders = "\n".join(
        f"    - {{id: l{i}, type: pc, unit: ap{i}, rating: {i % 4}, near: [{near}]}}"
        for i in range(platoons)
    )
    platoon_units = ", ".join(f"{{id: ap{i}, kind: platoon}}" for i in range(platoons))
    return (
        f"title: Pool dice against a battalion\nbuilding: {{capacity: {defenders}}}\n"
        "ruleset: {base: crossfire, overrides: {dice_mode: pool}}\n"
        f"defender:\n  units: [{{id: dc, kind: company, units: [{units}]}}]\n  stands:\n"
        f"{garrison}\n    - {{id: dcc, type: cc, unit: dc, rating: 3}}\n"
        "attacker:\n  units: [{id: ab, kind: battalion, units: [{id: ac, kind: company, "
        f"units: [{platoon_units}]}}]}}]\n  stands:\n{assault}\n{leaders}\n"
        f"    - {{id: acc, type: cc, unit: ac, rating: 3, near: [{near}]}}\n"
        f"    - {{id: abc, type: bc, unit: ab, rating: 3, near: [{near}]}}\n"
    )


#: Each crafted shape by name: the text of its file.
CRAFTED: dict[str, Callable[[], str]] = {
    "fo-in-own-units-6-v-49": fo_units,
    "own-units-6-v-8": lambda: scenario(
        "6 v 8, every stand in its own unit",
        6,
        each_in_its_own_unit("d", 6),
        each_in_its_own_unit("a", 8),
    ),
    "120-a-side": lambda: scenario("120 a side", 100, one_platoon("d", 120), one_platoon("a", 120)),
    "distinct-8-v-8": distinct,
    "60-a-side-crafted": lambda: scenario(
        "60 a side", 60, one_platoon("d", 60), one_platoon("a", 60)
    ),
    "chain-of-nested-units": chain,
    # found by the property test: step 6 may fold 18 unopposed groups, one way per placement
    "unopposed-19-v-1-and-leaders": lambda: shaped(19, 1, leaders=2, own_units=True),
    # found by a hostile review: a common multiple of the pools' odds that no budget could stop
    "pool-dice-8-v-a-battalion": pooled_battalion,
}


def write(name: str, folder: Path) -> Path:
    """Write crafted file ``name`` into ``folder``; its path."""
    path = folder / f"{name}.yaml"
    path.write_text(CRAFTED[name](), encoding="utf-8")
    return path
