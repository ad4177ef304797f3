"""The violation object every checker returns, modelled on pydantic's error object.

>>> v = Violation(rule="2b", step=2, message="Two weapons in one combat.", stands=["h1", "h2"])
>>> v.rule, v.stands
('2b', ['h1', 'h2'])
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Violation(BaseModel):
    """One broken rule: its id, the step of the procedure, a plain-English reason, the stands."""

    model_config = ConfigDict(frozen=True)

    rule: str = Field(description="The rule id, as in docs/rules.md (B1, 1a ... 6c).")
    step: int = Field(description="The step of the procedure (0 for building capacity).")
    message: str = Field(description="What is wrong and how to put it right.")
    stands: list[str] = Field(default_factory=list, description="The stands involved.")

    def sort_key(self) -> tuple[int, str, tuple[str, ...], str]:
        return (self.step, self.rule, tuple(self.stands), self.message)
