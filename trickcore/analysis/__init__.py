"""Analysis at scale: many matches in deterministic chunks (in-process or on Dask), the
quantities measured per deal and per match, variant comparison with confidence intervals,
HTML reports, and the search for a deal on which two variants disagree.

Nothing here is imported by `import trickcore`; Dask, numpy, matplotlib and hypothesis are
imported only by the functions that need them.
"""
