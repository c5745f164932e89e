"""`python -m trickcore ...`: the same command line as `trickcore ...`."""

from .cli import main

raise SystemExit(main())
