"""Fingerprints of the shipped variants' behaviour: every legal-action list, every seat's
observation and the scores, step by step over random matches, hashed.

`tests/test_fingerprint.py` compares them with `tests/fingerprints.json`, so that a change of
the engine or the language that alters how any shipped variant plays is noticed. A change of
a rule on purpose updates the file:

    python -m tests.fingerprint --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

import trickcore

FILE = Path(__file__).resolve().parent / "fingerprints.json"
ACTIONS = 500  # actions played per seat count of a variant (over matches in turn)


def fingerprint(name: str, actions: int = ACTIONS) -> dict[str, str]:
    """Seat count -> the sha256 of everything seen while playing `actions` random actions
    (new matches from seeds 0, 1, ... as matches end)."""
    variant = trickcore.load_variant(name)
    out: dict[str, str] = {}
    for players in variant.model.players:
        h = hashlib.sha256()
        rng = random.Random(f"{name}/{players}")
        seed = 0
        m = variant.new_match(seed=seed, players=players)
        for _ in range(actions):
            if m.is_over:
                h.update(repr((m.scores, m.winners, m.stopped)).encode())
                seed += 1
                m = variant.new_match(seed=seed, players=players)
            legal = m.legal_actions()
            h.update(repr((m.to_act, [a.text for a in legal], m.legal_ids())).encode())
            for seat in range(m.seats):
                h.update(repr(m.observation(seat).to_dict()).encode())
            m.apply(legal[rng.randrange(len(legal))])
        h.update(repr((m.scores, list(m.deal_results))).encode())
        out[str(players)] = h.hexdigest()
    return out


def all_fingerprints(actions: int = ACTIONS) -> dict[str, dict[str, str]]:
    """Every shipped variant's fingerprints."""
    return {name: fingerprint(name, actions) for name in trickcore.list_variants()}


def main(argv: list[str] | None = None) -> int:
    """Write tests/fingerprints.json (`--write`), or print what differs from it."""
    p = argparse.ArgumentParser(prog="python -m tests.fingerprint")
    p.add_argument("--write", action="store_true", help="write the file anew")
    args = p.parse_args(argv)
    now = all_fingerprints()
    if args.write:
        FILE.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {FILE} ({len(now)} variants)")
        return 0
    saved = json.loads(FILE.read_text())
    changed = [n for n in sorted(set(now) | set(saved)) if now.get(n) != saved.get(n)]
    for name in changed:
        print(f"{name}: changed")
    print(f"{len(changed)} of {len(now)} variants changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
