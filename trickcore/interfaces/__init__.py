"""The command line and terminal output."""
