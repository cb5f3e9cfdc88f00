"""A round's names for the anonymiser (review_app.anonymiser.anonymise), and the opaque sample codes
that stand for its participants."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable

from reportgen.model import Model
from review_app.anonymiser.identity_forms import KIND_NAME_ATTRIBUTES

CODE_PREFIX = "SISTEMA"
# No 0/O or 1/I/L: a reviewer may copy a code by hand into a contestation.
_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def round_names(models: Iterable[Model]) -> tuple[str, ...]:
    """Every name of the round's models and providers that could unblind a sample."""
    names: set[str] = set()
    for model in models:
        for value in (model.model_id, model.display_name, model.provider, model.api_identifier):
            value = value.strip()
            if value:
                names.add(value)
                # "openai/gpt-4o" and "org:model" identifiers: each part may appear alone.
                names.update(p for p in re.split(r"[/:@]", value) if len(p) >= 2)
        if model.snapshot.strip():
            names.add(model.snapshot.strip())
        # A kind's own identity columns (multidomain: the organisation and its group).
        for attribute in KIND_NAME_ATTRIBUTES:
            value = getattr(model, attribute, "")
            if isinstance(value, str) and value.strip():
                names.add(value.strip())
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


def new_code() -> str:
    """An opaque sample code drawn from the OS's randomness, independent of the sample."""
    token = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))
    return f"{CODE_PREFIX}-{token}"
