"""The multidomain spec's rules across tables (written by the rules helper)."""

from __future__ import annotations

from reportgen.archive import Problems
from reportgen.kinds.multidomain.model import Round


def check_rules(round_: Round, problems: Problems) -> None:
    """Every rule across the round's tables; each violation is one problem."""
