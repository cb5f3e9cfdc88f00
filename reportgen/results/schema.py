"""The JSON form and JSON Schema of a kind's results object, written once for every kind.

A kind's results model derives from `ResultsDocument` (its JSON form and back); its
`ResultsSchema` names the model, the schema version and the package that ships the
generated `results.schema.json`. `python -m reportgen.kinds.schemas [--check]` writes
(or checks) every kind's file from it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Self, TypeVar

from pydantic import BaseModel, Field

from reportgen.results.exact import ResultsModel

SCHEMA_FILE = "results.schema.json"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class ResultsDocument(BaseModel):
    """A results object: a pydantic model with a JSON form (`reportgen stats`)."""

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON form as plain Python values (dicts, lists, str, numbers, None)."""
        return self.model_dump(mode="json", by_alias=True)

    @classmethod
    def from_json_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild from the JSON form; pydantic's ValidationError (a ValueError) if it is not."""
        # Validated as JSON text: strict mode accepts JSON arrays for tuples, not Python lists.
        return cls.model_validate_json(json.dumps(data, allow_nan=False))


SchemaT = TypeVar("SchemaT", bound=str)
KindT = TypeVar("KindT", bound=str)


class KindResults(ResultsDocument, ResultsModel, Generic[SchemaT, KindT]):
    """A kind's results object, opening with the fields every kind's begins with (the
    kind names its schema version's and its name's literal types)."""

    # `schema` is an alias: a field of that name would shadow BaseModel.schema().
    schema_: SchemaT = Field(alias="schema", description="version of this JSON form")
    round_id: str
    kind: KindT
    synthetic: bool
    package_version: str


@dataclass(frozen=True)
class ResultsSchema:
    """A kind's results model, its schema version and the package shipping its schema."""

    model: type[BaseModel]
    version: str  # the results object's `schema`, in the file's `$comment`
    package: str  # holds SCHEMA_FILE, published beside results.json

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the results object, generated from the model."""
        generated = self.model.model_json_schema(by_alias=True)
        return {"$schema": JSON_SCHEMA_DIALECT, "$comment": f"format {self.version}", **generated}

    def text(self) -> str:
        """The schema as the text of `results.schema.json` (what the file must hold)."""
        return json.dumps(self.json_schema(), ensure_ascii=False, indent=1) + "\n"

    def published_text(self) -> str:
        """The schema file shipped in the package, as published beside results.json."""
        return resources.files(self.package).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")

    def path(self) -> Path:
        """Where the schema file lies in the source tree (the generator writes it)."""
        return Path(str(resources.files(self.package).joinpath(SCHEMA_FILE)))
