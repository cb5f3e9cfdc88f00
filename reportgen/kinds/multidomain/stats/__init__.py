"""The multidomain statistics (multidomain-metrics.md §2-§9), over `score.RoundPoints`.

- `scores`: S(m, X) for every slice, the primary (macro) score;
- `classify`: the tie-break chain and competition ranking (§3);
- `bootstrap`: the stratified item bootstrap, exact percentiles, technical ties (§4);
- `pairwise`: battles, W/L/T, online Elo, Bradley-Terry, their bootstrap (§5);
- `process`: latency, timeouts, cost, format and language compliance, refusals (§6);
- `quality`: jury summary, audit draw and invalidations, calibration, Krippendorff α (§7);
- `integrity`: canaries and 8-gram containment (§8);
- `dates`: embargo, contestation, provisional and retention dates (§9).
"""
