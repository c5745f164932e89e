"""A fingerprint of the engine's behaviour: random matches of every shipped variant, every
step recorded (whose turn, the phase, the legal actions, each seat's observation), with a
copy taken mid-deal and played on, and hidden worlds drawn. Run once with the pure-Python
engine and once with the compiled one (`python -m native compare`): the two must agree.

    python -m native.trace [--deals N] [--variant NAME ...] [--shard K/N] [--progress]

prints one JSON object: the engine that ran, and per variant and seed a hash of its steps.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

import trickcore

MAX_ACTIONS = 400  # a match is traced for at most this many actions


def trace_match(variant: trickcore.Variant, seed: int) -> str:
    """The hash of one random match's steps (see the module's docstring)."""
    rng = random.Random(seed)
    m = variant.new_match(seed=seed)
    h = hashlib.sha256()
    copied = False
    for step in range(MAX_ACTIONS):
        if m.is_over:
            break
        deal = m.current
        legal = m.legal_actions()
        seen = [repr(m.observation(s)) for s in range(m.seats)]
        h.update(repr((deal.to_act, deal.phase, [a.text for a in legal], seen)).encode())
        if not copied and step >= 6 + seed % 9 and not deal.is_over:
            # play on with a copy of the match; the worlds a seat could be in are drawn too
            m = m.clone()
            copied = True
            seat = deal.to_act if deal.to_act >= 0 else 0
            worlds = variant.sample_worlds(m.observation(seat), 3, random.Random(seed))
            h.update(repr([[sorted(x) for x in w.hands] for w in worlds]).encode())
        action = rng.choice(legal)
        m.apply(action if rng.random() < 0.5 else action.text)
    h.update(repr((m.scores, m.deals_played, m.is_over)).encode())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> None:
    """Print the engine and the hashes as JSON."""
    parser = argparse.ArgumentParser(prog="python -m native.trace")
    parser.add_argument("--deals", type=int, default=4, help="matches per variant")
    parser.add_argument("--variant", action="append", help="a shipped variant (default: all)")
    parser.add_argument(
        "--shard", default="0/1", help="K/N: every Nth variant from the Kth (one of N processes)"
    )
    parser.add_argument(
        "--progress", action="store_true", help="a line on stderr per variant traced"
    )
    args = parser.parse_args(argv)
    k, _, n = args.shard.partition("/")
    names = (args.variant or trickcore.shipped_variants())[int(k) :: int(n)]
    hashes = {}
    for done, name in enumerate(names, 1):
        for seed in range(args.deals):
            hashes[f"{name}/{seed}"] = trace_match(trickcore.load_variant(name), seed)
        if args.progress:
            print(f"progress: {done} of {len(names)}", file=sys.stderr, flush=True)
    print(json.dumps({"engine": trickcore.ENGINE, "hashes": hashes}))


if __name__ == "__main__":
    main()
