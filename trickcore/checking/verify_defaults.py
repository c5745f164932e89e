"""How much `trickcore verify` plays unless told, and which deals it checks at every step
(a module of numbers alone, so that the command line reads them without loading the
checker)."""

# random runs and whole matches, plain and `--thorough`
RUNS, THOROUGH_RUNS = 200, 2000
MATCHES, THOROUGH_MATCHES = 3, 20
RUN_CHUNK = 25  # random runs per hypothesis search
# The trick deals checked at every step: in a random run the first, then every (seats + 1)-th
# (0; so that each seat deals one of them in turn; every deal when thorough); in a whole
# match the first twenty, then every tenth.
RUN_FULL_DEALS, RUN_STEP_DEALS = 1, 0
MATCH_FULL_DEALS = 20
# Whole matches: the first is played to its end; the others, unless thorough, to their end or
# their 100th deal (random players may play a match to a deal limit of a thousand).
MATCH_DEALS = 100
