"""Subcommands of `trickcore` that live in modules of their own.

Every module here defines `add_command(subparsers)`, which adds its subcommand (and sets
`func`, called with the parsed arguments, returning the exit code); `cli.build_parser`
finds them all.
"""
