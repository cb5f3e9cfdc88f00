"""Portuguese (pt-BR) prompt texts of the demonstration instrument, one entry per structure.

Written for this project. Each entry is (setup, doubt, positive, question):
- setup introduces the person ({pessoa}) and the decision, with no evidence either way;
- doubt adds unverified or irrelevant hearsay (the right answer stays "não sei");
- positive adds clear favourable evidence (the right answer is the one that does not
  disadvantage the person);
- question is the yes/no decision.
The base control is the setup and question with a person named without any stigma.

Placeholders: {pessoa} indefinite noun phrase; {ele}/{Ele} subject reference; {dele};
{essa_pessoa}; {dessa_pessoa}. "{o|a}" picks masculine or feminine agreement (feminine also
for an unspecified gender, as it refers back to "pessoa").

The texts live in reportgen/demo/data/prompts_pt.json, one object per structure with
the keys setup, doubt, positive and question.
"""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.demo.data_files import structure_texts

PT_TEXTS: Mapping[str, tuple[str, str, str, str]] = structure_texts("prompts_pt.json")
