"""The playtest lab: many games in parallel (locally or on Ray), Parquet results, metrics, reports, comparisons and a rule optimiser."""

from .metrics import summary, wilson
from .run import execute, plan_run
from .simulate import RunConfig

__all__ = ["RunConfig", "execute", "plan_run", "summary", "wilson"]
