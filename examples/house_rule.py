"""Load a house rule written as a short rules file and compare it with the shipped variant.

Run:  python examples/house_rule.py
"""

from __future__ import annotations

from pathlib import Path

import trickcore

HERE = Path(__file__).parent


def main() -> None:
    base = trickcore.load_variant("tysiacha")
    house = trickcore.load_variant(HERE / "quick-barrel.rules")
    print(f"{house.title} extends {base.title}; built from:")
    for source in house.model.sources:
        print("  ", source)
    for variant in (base, house):
        rule = next(r for r in variant.model.match.after_deal if r.name == "barrel_out")
        cond = rule.condition.text if rule.condition else "always"
        print(f"{variant.name}: barrel_out if {cond}")
    # play a quick match of the house rule with random players
    import random

    rng = random.Random(1)
    match = house.new_match(seed=1)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    print(f"random match of the house rule: {len(match.deal_results)} deals, scores {match.scores}")


if __name__ == "__main__":
    main()
