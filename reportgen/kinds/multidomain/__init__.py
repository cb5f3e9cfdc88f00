"""The `multidomain` kind: the blind multidomain benchmark of REG-BC-2026-001."""
