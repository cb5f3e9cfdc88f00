"""Option types shared by the commands: a value that is wrong by itself is a usage error.

click reports a value its type rejects as "Usage: ... Error: Invalid value for '--x': ..."
with exit status 2, before the command runs; problems that only the data reveal (a broken
archive, a model id already in the round) stay the commands' own errors, exit status 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from reportgen.model import SLUG

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:  # click 8.5's stubs make ParamType generic; older clicks cannot subscript it
    _TextParamType = click.ParamType[str]
else:
    _TextParamType = click.ParamType


class SlugType(_TextParamType):
    """An id that names files and URLs: lower-case letters, digits and hyphens."""

    name = "slug"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        if not SLUG.fullmatch(text):
            self.fail(f"{text!r} is not a slug [a-z0-9][a-z0-9-]*", param, ctx)
        return text


class TrimmedTextType(_TextParamType):
    """Text that is not empty and has no spaces around it (it is written to a CSV cell)."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        if not text.strip() or text != text.strip():
            self.fail(
                f"{text!r}: expected a non-empty value without surrounding spaces", param, ctx
            )
        return text


class NumberRange(click.FloatRange):
    """click.FloatRange that also refuses "nan", which no range comparison catches."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if isinstance(number, float) and math.isnan(number):
            self.fail(
                f"{value!r} is not a number in the range {self._describe_range()}.", param, ctx
            )
        return number


SLUG_TYPE = SlugType()
TRIMMED_TEXT = TrimmedTextType()


def path_option(
    *declarations: str,
    help: str,
    default: Path | None = None,
    folder: bool = False,
    required: bool = False,
) -> Callable[[F], F]:
    """An option naming a path (a `Path`; `folder`: not a file), `default` when it is not
    given (shown in --help)."""
    return click.option(
        *declarations,
        type=click.Path(file_okay=not folder, path_type=Path),
        default=default,
        show_default=default is not None,
        required=required,
        help=help,
    )
