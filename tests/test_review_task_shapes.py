"""The registry of task shapes (review_app.tasks.shapes, issue 20 point 7): the reviewer's
page shows a sample by its task's shape, looked up in one registry; the app brings the
choice and rubric shapes, a kind's review part the others its tasks use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reportgen.kinds import (
    Kind,
    KindReview,
    TaskShape,
    get_kind,
    register_review_part,
    unregister_review_part,
)
from reportgen.kinds.review_task import (
    CHOICE_SHAPE,
    COUNT_SHAPE,
    RUBRIC_SHAPE,
    SCALE_SHAPE,
    ReviewTask,
)
from review_app.core.errors import ReviewInputError
from review_app.tasks.shapes import APP_SHAPES, task_shape


def _task(kind: str, task_type: str | None = None) -> ReviewTask:
    return get_kind(kind).review_task.variant(task_type)


def test_each_built_in_task_declares_its_shape() -> None:
    assert _task("estigmas").shape_of(0) == CHOICE_SHAPE
    assert _task("multidomain", "audit").shape_of(3) == RUBRIC_SHAPE
    assert _task("multidomain", "calibration").shape_of(3) == RUBRIC_SHAPE
    assert _task("counterfactual", "calibration").shape_of(1) == SCALE_SHAPE
    extraction = _task("counterfactual", "extraction")
    assert extraction.shape_of(0) == CHOICE_SHAPE  # a binary decision: yes, no, cannot tell
    assert extraction.shape_of(1) == COUNT_SHAPE  # a count: its variable is its one criterion


def test_the_app_shows_its_own_shapes_and_each_kinds_through_its_review_part() -> None:
    assert task_shape("estigmas", _task("estigmas"), 0) is APP_SHAPES[CHOICE_SHAPE]
    assert task_shape("multidomain", _task("multidomain", "audit"), 3) is APP_SHAPES[RUBRIC_SHAPE]
    scale = task_shape("counterfactual", _task("counterfactual", "calibration"), 1)
    count = task_shape("counterfactual", _task("counterfactual", "extraction"), 1)
    assert (scale.name, scale.shortcuts) == (SCALE_SHAPE, "rubric_shortcuts_help")
    assert (count.name, count.shortcuts) == (COUNT_SHAPE, "cf_count_shortcuts_help")
    for shape in (*APP_SHAPES.values(), scale, count):
        assert callable(shape.load_view()), shape  # each view names a function


def test_a_plug_in_kinds_new_task_type_is_shown_by_the_shape_it_declares(
    plugin_kind: Kind,
) -> None:
    task = plugin_kind.review_task
    assert task.task_type not in APP_SHAPES
    assert task_shape(plugin_kind.name, task, 0) is APP_SHAPES[CHOICE_SHAPE]


@pytest.fixture
def dial_kind() -> Iterator[ReviewTask]:
    """A plug-in kind 'dial' whose task has a shape of its own, declared by its part."""
    shape = TaskShape("dial", "tests.test_review_task_shapes:_dial_view", "shortcuts_help")
    register_review_part("dial", KindReview(shapes=(shape,)))
    try:
        yield ReviewTask(
            task_type="turn",
            choices=("1", "2"),
            note_required=frozenset(),
            automatic_values=(),
            comparison={},
            labels={},
            stratum_names=(),
            units=lambda round_: (),
            shape="dial",
        )
    finally:
        unregister_review_part("dial")


def _dial_view() -> None:  # the view a TaskShape names (never called here)
    return None


def test_a_kinds_own_shape_is_found_through_its_review_part(dial_kind: ReviewTask) -> None:
    shape = task_shape("dial", dial_kind, 0)
    assert shape.name == "dial"
    assert shape.load_view() is _dial_view


def test_a_shape_found_nowhere_is_refused_naming_it(dial_kind: ReviewTask) -> None:
    # Another kind's part does not lend its shape; the app's own do not include it.
    with pytest.raises(ReviewInputError) as refused:
        task_shape("estigmas", dial_kind, 0)
    assert refused.value.params == {"shape": "dial", "kind": "estigmas", "task_type": "turn"}
