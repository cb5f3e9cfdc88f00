"""Helpers shared by the tests and the benchmarks in `bench/`; not part of the shipped package."""
