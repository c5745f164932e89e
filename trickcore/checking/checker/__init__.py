"""The parts of the checker (`trickcore.checking.invariants` is their front): `runs`
(`Checker`: a run, one match from a seed, checked step by step), `steps` (the invariants of
every step), `bouts` (those of a deal of bouts), `information` (no leak, observation
complete: the other worlds), `results` (what deals and the match come to), `action_bound`
(the most actions a deal may take) and `violations` (what a broken invariant reports).
"""
