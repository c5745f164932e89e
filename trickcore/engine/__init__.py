"""The engine: a compiled variant (Game), deal states and their phases, matches, saving."""
