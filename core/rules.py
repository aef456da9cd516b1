"""The rule settings: one frozen object, defaults from RULES.md, variants as fields.

Variant logic reads these fields; nothing elsewhere asks "which variant is this".

>>> Rules().target
121
>>> Rules.preset("small majority").majority_tie
'split'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from .errors import BasraError

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
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise BasraError(f"bad rules: target must be a positive whole number, not {self.target!r}")
        if (
            not isinstance(self.majority_points, int)
            or isinstance(self.majority_points, bool)
            or self.majority_points < 0
        ):
            raise BasraError(f"bad rules: majority_points must be 0 or more, not {self.majority_points!r}")
        if self.majority_tie not in ("carry", "split"):
            raise BasraError(f"bad rules: majority_tie must be 'carry' or 'split', not {self.majority_tie!r}")
        if not isinstance(self.optional_capture, bool):
            raise BasraError(
                f"bad rules: optional_capture must be true or false, not {self.optional_capture!r}"
            )
        if self.seven_diamonds_basra not in ("sum", "count"):
            raise BasraError(
                f"bad rules: seven_diamonds_basra must be 'sum' or 'count', not {self.seven_diamonds_basra!r}"
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
            raise BasraError(f"bad rules: expected an object, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise BasraError(f"bad rules: unknown field {unknown[0]!r}")
        return cls(**data)

    def with_changes(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named variant of RULES.md section 8, or "default"."""
        try:
            return PRESETS[name]
        except KeyError:
            raise BasraError(f"unknown rules preset {name!r}") from None


_DEFAULT = Rules()
_FIELD_NAMES = tuple(f.name for f in fields(Rules))

PRESETS: dict[str, Rules] = {
    "default": _DEFAULT,
    "target 100": Rules(target=100),
    "small majority": Rules(majority_points=3, majority_tie="split"),
    "optional capture": Rules(optional_capture=True),
    "7D by count": Rules(seven_diamonds_basra="count"),
}
