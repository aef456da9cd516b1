"""The rule settings: one frozen object, defaults from RULES.md, variants as fields.

Variant logic reads these fields; nothing elsewhere asks "which variant is this".

>>> Rules().target
121
>>> Rules.preset("small majority").majority_tie
'split'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Final, Literal

from .errors import BadArgument, shown

MajorityTie = Literal["carry", "split"]
SevenDiamondsBasra = Literal["sum", "count"]


@dataclass(frozen=True, slots=True)
class Rules:
    """How a match is played.

    target: points that win the match, checked after each complete round.
    majority_points: worth of taking 27 or more of the 52 cards.
    majority_tie: on 26-26, "carry" the majority into the next round, or
        "split" it (each side scores it, nothing carried).
    optional_capture: a capturing card may be laid without taking.
    seven_diamonds_basra: when the 7D's sweep is a basra: "sum" (every floor
        card a number card, values adding up to 10 or less) or "count" (10 or
        fewer floor cards, none a queen or king).
    """

    target: int = 121
    majority_points: int = 30
    majority_tie: MajorityTie = "carry"
    optional_capture: bool = False
    seven_diamonds_basra: SevenDiamondsBasra = "sum"

    def __post_init__(self) -> None:
        if not _whole(self.target, 1):
            raise BadArgument(
                f"bad rules: target must be a whole number from 1 to {LIMIT:,}, not {shown(self.target)}"
            )
        if not _whole(self.majority_points, 0):
            raise BadArgument(
                f"bad rules: majority_points must be a whole number from 0 to {LIMIT:,}, "
                f"not {shown(self.majority_points)}"
            )
        if not _one_of(self.majority_tie, ("carry", "split")):
            raise BadArgument(
                f"bad rules: majority_tie must be 'carry' or 'split', not {shown(self.majority_tie)}"
            )
        if not isinstance(self.optional_capture, bool):
            raise BadArgument(
                f"bad rules: optional_capture must be true or false, not {shown(self.optional_capture)}"
            )
        if not _one_of(self.seven_diamonds_basra, ("sum", "count")):
            raise BadArgument(
                "bad rules: seven_diamonds_basra must be 'sum' or 'count', "
                f"not {shown(self.seven_diamonds_basra)}"
            )

    def to_dict(self) -> dict[str, Any]:
        """Only the fields that differ from the defaults, for compact records."""
        changed = {}
        for name in _FIELD_NAMES:
            value = getattr(self, name)
            if value != getattr(_DEFAULT, name):
                changed[name] = value
        return changed

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Rules from a record's ``rules`` object; unknown keys are an error, not ignored."""
        if data is None:
            return _DEFAULT
        if not isinstance(data, dict):
            raise BadArgument(f"bad rules: expected an object, got {shown(data)}")
        _check_names(data)
        return cls(**data)

    def with_changes(self, **changes: Any) -> Rules:
        _check_names(changes)
        return replace(self, **changes)

    @classmethod
    def preset(cls, name: object) -> Rules:
        """A named variant of RULES.md section 8, or "default"."""
        found = PRESETS.get(name) if isinstance(name, str) else None
        if found is None:
            raise BadArgument(f"unknown rules preset {shown(name)}")
        return found


# The most a target or the majority may be worth: far beyond any match, and
# scores stay numbers any JSON reader takes.
LIMIT: Final = 1_000_000


def _whole(value: object, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= LIMIT


def _one_of(value: object, choices: tuple[str, ...]) -> bool:
    return isinstance(value, str) and value in choices


def _check_names(data: dict[Any, Any]) -> None:
    """Refuse a field name Rules does not have (any key that is not one)."""
    for name in data:
        if not isinstance(name, str) or name not in _FIELD_NAMES:
            raise BadArgument(f"bad rules: unknown field {shown(name)}")


_DEFAULT = Rules()
_FIELD_NAMES = tuple(f.name for f in fields(Rules))

PRESETS: dict[str, Rules] = {
    "default": _DEFAULT,
    "target 100": Rules(target=100),
    "small majority": Rules(majority_points=3, majority_tie="split"),
    "optional capture": Rules(optional_capture=True),
    "7D by count": Rules(seven_diamonds_basra="count"),
}
