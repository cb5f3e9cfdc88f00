"""Kinds of round: each kind is a plug-in on the shared core (see docs/design.md)."""
