"""Tests of the rules engine in core/, one file per section of RULES.md."""
