"""`python -m trickcore ...`: the same command line as `trickcore ...`."""

from .interfaces.cli import main

raise SystemExit(main())
