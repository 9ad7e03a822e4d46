"""``python -m trackformat``, and the ``trackformat`` script: the command line as a program."""

from trackformat.collector import settle
from trackformat.process import one_job_process


def program() -> int:
    """Run the command line in this process, which ends with it (see
    :func:`~trackformat.process.one_job_process`); returns the exit code."""
    one_job_process()
    from trackformat.cli import main

    settle()
    return main()


if __name__ == "__main__":
    raise SystemExit(program())
