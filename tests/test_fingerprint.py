"""Every shipped variant plays exactly as it did (issue 28, "Keep"): legal-action lists,
observations and scores over random matches, step by step, against the fingerprints in
`tests/fingerprints.json` (`python -m tests.fingerprint --write` after a rule changes on
purpose, saying so in the commit)."""

from __future__ import annotations

import json

import pytest
from fingerprint import FILE, fingerprint

import trickcore

SAVED = json.loads(FILE.read_text())


@pytest.mark.parametrize("name", trickcore.list_variants())
def test_a_shipped_variant_plays_as_it_did(name):
    assert name in SAVED, f"{name} has no fingerprint: python -m tests.fingerprint --write"
    assert fingerprint(name) == SAVED[name]


def test_every_fingerprint_is_of_a_shipped_variant():
    assert sorted(SAVED) == sorted(trickcore.list_variants())
