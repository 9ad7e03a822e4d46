"""trackformat: Formula D track files, their graphs, the validator and the rules engine.

Pure Python with no Qt, so that the command line, CI and other programs can use it headless.
"""

__version__ = "0.1.0"
