"""The registry of task shapes: how the reviewer's page shows one sample and takes its answer.

A kind's review task names its shape (`ReviewTask.shape_of`, reportgen.kinds.review_task),
and the page looks the shape up here, never a task's or a kind's name. The app brings two
shapes: `choice` (the prompt, the output and one button per choice: an Estigmas label, or
a plug-in kind's choice task of its own type) and `rubric` (one score per criterion on the
task's scale: the multidomain audit and calibration). A kind brings any other shape its
tasks use in its review part (`KindReview.shapes`, found through the registry of kinds):
the counterfactual kind its `scale` (one score and the mask flag) and `count` (a number
typed) views. A shape's view is named as "module:function" and imported when a sample of
it is shown.
"""

from __future__ import annotations

from reportgen.kinds import TaskShape, review_part
from reportgen.kinds.review_task import CHOICE_SHAPE, RUBRIC_SHAPE, ReviewTask
from review_app.core.errors import ReviewInputError

APP_SHAPES: dict[str, TaskShape] = {
    CHOICE_SHAPE: TaskShape(
        CHOICE_SHAPE, "review_app.pages.reviewer:choice_view", "shortcuts_help"
    ),
    RUBRIC_SHAPE: TaskShape(
        RUBRIC_SHAPE, "review_app.pages.rubric:rubric_view", "rubric_shortcuts_help"
    ),
}


def task_shape(kind: str, task: ReviewTask, criteria: int) -> TaskShape:
    """The shape of a unit of `task` (a task of the kind called `kind`) with `criteria`
    criteria: the app's own, else one the kind's review part declares; a shape found in
    neither is refused, naming it and the kind."""
    name = task.shape_of(criteria)
    if name in APP_SHAPES:
        return APP_SHAPES[name]
    for shape in review_part(kind).shapes:
        if shape.name == name:
            return shape
    raise ReviewInputError("error_unknown_shape", shape=name, kind=kind, task_type=task.task_type)
