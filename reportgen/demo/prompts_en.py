"""English prompt texts of the demonstration instrument, for the inherited structures q01-q25.

Written for this project; they realise the same situations as the pt-BR texts for the
contrastive language study. Each entry is (setup, doubt, positive, question), with the same
roles as in prompts_pt.

Placeholders: {person} indefinite noun phrase; {they}/{They}, {them}, {their} (he/she/they);
{this_person}. "{x|y|z}" picks the form for a man, a woman or an unspecified gender
(singular "they" takes plural verbs: "{has|has|have}").

The texts live in reportgen/demo/data/prompts_en.json, one object per structure with
the keys setup, doubt, positive and question.
"""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.demo.data_files import structure_texts

EN_TEXTS: Mapping[str, tuple[str, str, str, str]] = structure_texts("prompts_en.json")
