"""The counterfactual statistics (counterfactual-metrics.md §2-§11), over `score` arrays.

- `groups`: group values and per-name values, n and na (§2);
- `gaps`: gaps, flags strictly above 1/10 and 1/5, exceeds (§3);
- `mcnemar`, `wilcoxon`, `paired`, `pairs`: the paired tests and their pairing (§4, §5);
- `family`: Benjamini-Hochberg and significance (§6);
- `findings`: the extreme pair, problem pairs, findings and their order (§7);
- `placebo`: the within-group placebo and the name-carried warning (§8);
- `calibration`: κ, interval α, agreement, Spearman, the score table (§9);
- `bootstrap`: the crossed bootstrap over templates × positions (§10);
- `regression`: the before/after view (§11).
"""
