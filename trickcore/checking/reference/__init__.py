"""An independent restatement of a variant's rules, for the consistency checker.

Its modules, from the bottom up: `errors` (what stops the restatement), `expressions` (the
tree-walking evaluator), `rules_text` (settings read from the merged syntax tree),
`restated` (the settings and words it follows), `rule_blocks` (melds, decisions and
choices as read), `variant` (`Reference`: the rules of one variant), `bouts` (the moves of
a game of bouts), `match_book` (`MatchBook`: a match's scores and end), and the replay of a
trick deal: `deal_state` (the deal as dealt and its state), then one part per job
(`finished_tricks`, `scoring`, `views`, `legal_cards`, `decisions`, `card_offers`,
`trick_play`, `auction`, `card_phases`) joined in `trick_replay` (`TrickReplay`: the
flow). `trickcore.checking.check_reference` is their front.
"""
