"""``python -m trackformat``: the same command line as the ``trackformat`` script."""

from trackformat.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
