"""Every round the tests build, and the constants they share.

Import from here, never from the private modules (nor from another test module):

- archives on disk, written with the real writer (`_archives`): `make_round`,
  `make_raw_round`, `tiny_parts`/`write_parts` to change one part before writing,
  `convert_to_version_1`;
- the site's configuration, theme, page names and small or demonstration rounds (`_site`);
- in-memory rounds for scoring and the hand-computed golden cases (`_scoring`);
- the review app's in-memory round and its self-naming models (`_review`).
"""

from tests.factories._archives import (
    ANSWER_TEXT,
    DEFAULT_MODELS,
    STIGMAS,
    STRUCTURES,
    V1_MANIFEST_KEYS,
    LabelChooser,
    RoundParts,
    convert_to_version_1,
    cycling_labels,
    make_raw_round,
    make_round,
    tiny_items,
    tiny_manifest,
    tiny_parts,
    with_manifest,
    write_parts,
)
from tests.factories._review import REVIEW_MODELS, memory_review_round, review_model_names
from tests.factories._scoring import CASES, GOLDEN, golden_round, make_item, memory_round
from tests.factories._site import (
    CONFIG,
    DEMO_ROUNDS,
    INJECTED,
    PAGES,
    REPO,
    THEME,
    build_tiny,
    complete_config,
    demonstration_rounds,
    tiny_rounds,
)

__all__ = [
    "ANSWER_TEXT",
    "CASES",
    "CONFIG",
    "DEFAULT_MODELS",
    "DEMO_ROUNDS",
    "GOLDEN",
    "INJECTED",
    "PAGES",
    "REPO",
    "REVIEW_MODELS",
    "STIGMAS",
    "STRUCTURES",
    "THEME",
    "V1_MANIFEST_KEYS",
    "LabelChooser",
    "RoundParts",
    "build_tiny",
    "complete_config",
    "convert_to_version_1",
    "cycling_labels",
    "demonstration_rounds",
    "golden_round",
    "make_item",
    "make_raw_round",
    "make_round",
    "memory_review_round",
    "memory_round",
    "review_model_names",
    "tiny_items",
    "tiny_manifest",
    "tiny_parts",
    "tiny_rounds",
    "with_manifest",
    "write_parts",
]
