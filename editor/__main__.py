"""``python -m editor [TRACK]``."""

from editor.app import main

# Guarded: test drives run in worker processes that import the main module again.
if __name__ == "__main__":
    raise SystemExit(main())
