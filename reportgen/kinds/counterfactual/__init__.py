"""The `counterfactual` kind: a counterfactual audit battery of customer-service chatbots.

Business message templates are filled with variants of a protected attribute (a name,
an age, a CEP, a writing style, an explicit mention), each cell is run R >= 2 times
against every system under test, and decision, quality and tone variables are
extracted from each answer (docs/counterfactual.md).
"""
