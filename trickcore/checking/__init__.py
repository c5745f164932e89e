"""Checking rules files: an independent restatement of the rules, invariants, verify."""
