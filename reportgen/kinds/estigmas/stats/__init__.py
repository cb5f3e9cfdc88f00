"""The statistics engine (docs/metrics.md).

Every function here works on the count cube and the item-level arrays of
`reportgen.kinds.estigmas.score`; none reads an archive.
`reportgen.kinds.estigmas.results` assembles them into one results object per round.

- `bootstrap`: the crossed (pigeonhole) bootstrap over stigmas and structures.
- `sensitivity`: leave-one-stigma-out and leave-one-structure-out re-rankings.
- `significance`: correlations, chi-square tests, McNemar, Benjamini-Hochberg.
- `diagnostics`: the per-model chi-square families (peril, style, axes, gender) and gender gaps.
- `fairness`: demographic-parity and equal-opportunity gaps per axis.
- `language`: the contrastive pt-BR / en language study.

The slow reference bootstrap and the random rounds of any shape that the tests and the
benchmark use live in `tests/support/`, outside the shipped package.
"""
