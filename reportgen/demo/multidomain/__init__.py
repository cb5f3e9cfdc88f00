"""Demonstration rounds of the `multidomain` kind: the worked example of metrics §11
(`tiny`) and the REG-BC-2026-001 demonstration round (`reg`), built by one assembler
that derives every value the spec computes from the content we write."""
