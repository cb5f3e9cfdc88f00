"""The statistics engine (../shared/spec/metrics.md).

Every function here works on the count cube and the item-level arrays of
`reportgen.kinds.estigmas.score`; none reads an archive.
`reportgen.kinds.estigmas.results` assembles them into one results object per round.

- `bootstrap`: the crossed (pigeonhole) bootstrap over stigmas and structures.
- `sensitivity`: leave-one-stigma-out and leave-one-structure-out re-rankings.
- `significance`: correlations, chi-square tests, McNemar, Benjamini-Hochberg.
- `diagnostics`: the per-model chi-square families (peril, style, axes, gender) and gender gaps.
- `fairness`: demographic-parity and equal-opportunity gaps per axis.
- `language`: the contrastive pt-BR / en language study.
- `reference`: a slow, obviously-correct bootstrap used to check the fast one.
- `synthetic`: random in-memory rounds of any shape, for tests and the benchmark.
"""
