"""The one place numba is imported: compiled functions, their machine code kept in the folder
:mod:`~trackformat.sim.kernel.cache` chooses (a user cache folder, never site-packages), or
compiled in memory by each process when no folder can keep it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

import numba
from numba.core import types
from numba.extending import intrinsic as _intrinsic
from numba.np import arrayobj as _arrayobj

from trackformat.sim.kernel.cache import CACHE, KEPT

F = TypeVar("F", bound=Callable[..., Any])

# numba's own functions are untyped: seen here as Any.
intrinsic: Callable[[Callable[..., Any]], Any] = _intrinsic
arrayobj: Any = _arrayobj

# Read by numba when each function below is decorated, so set before any of them is.
numba.config.CACHE_DIR = str(CACHE)  # type: ignore[attr-defined]
if "NUMBA_OPT" not in os.environ:
    # LLVM's -O1 rather than numba's default -O3: measured on the whole kernel, the first
    # compile took 44 s of CPU instead of 54, and races ran as fast or faster (10 cars, 2 laps
    # of Monaco: 413 random races/s against 401, 38.3 strong against 35.2). A user's
    # NUMBA_OPT is left as it is.
    opt_level: Any = numba.core.config._OptLevel
    numba.config.OPT = opt_level(1)  # type: ignore[attr-defined]
if "NUMBA_LOOP_VECTORIZE" not in os.environ:
    # No loop vectorizer: the kernel's loops branch on every step and hardly ever vectorize,
    # and the vectorizer's passes ran over each library at each level of calls. In turns with
    # it (3 rounds of each, 10 strong cars on Monaco): 0.92 times the first compile's CPU, and
    # races as fast (0.99 strong, 1.11 random, 1.01 cautious times, medians within the
    # rounds' spread). A user's NUMBA_LOOP_VECTORIZE is left as it is.
    numba.config.LOOP_VECTORIZE = 0  # type: ignore[attr-defined]


def compiled(function: F) -> F:
    """``function`` compiled by numba in nopython mode, its machine code kept on disk when a
    folder can keep it (see :func:`_compiled`), for compiled code to call: Python cannot call
    it (see :func:`entry`)."""
    return _compiled(function, inline=False, entry=False)


def entry(function: F) -> F:
    """:func:`compiled`, and callable from Python as well: for the functions only Python calls
    (the race loop, the counting, the legal moves of a position). Python calls a function the
    race uses through :func:`from_python`.

    numba gives each function it compiles a wrapper that Python can call, which unpacks every
    argument from its Python object. The kernel's functions take the board's, the rules' and
    the workspace's tuples, some fifty arrays: each wrapper was hundreds of lines of machine
    code, compiled and optimized in every function, and never run for a function only compiled
    code calls. Without them the kernel's first compile took 7% less time (A/B, strong
    drivers, 2 rounds of each)."""
    return _compiled(function, inline=False, entry=True)


_FROM_PYTHON: dict[Any, Any] = {}


def from_python(function: F) -> F:
    """The :func:`compiled` ``function`` (a step of the race) as Python can call it: for the
    tests and the helpers that ask one step of the race directly.

    A function of its own, over the same code, with the wrapper the race's own does without:
    compiled in this process the first time it is called, and not kept in the cache folder,
    whose copy of ``function`` has no wrapper (numba keys its files by the function, not by how
    it was compiled). What it calls comes from the cache as the race's does."""
    dispatcher = _FROM_PYTHON.get(function)
    if dispatcher is None:
        code: Any = function
        dispatcher = _FROM_PYTHON[function] = numba.njit(nogil=True, error_model="numpy")(
            code.py_func)
    return cast(F, dispatcher)


def inlined(function: F) -> F:
    """:func:`compiled`, and written into each compiled function that calls it rather than
    called: for the thin wrappers and one-caller steps between the race loop and the move walk.

    numba compiles every compiled function into its own library, which links in the machine
    code of everything it calls and optimizes it again: each level of calls between the race
    loop and the walk compiled the whole walk once more. A function written into its caller
    adds no level."""
    return _compiled(function, inline=True, entry=True)


def _compiled(function: F, inline: bool, entry: bool) -> F:
    """``function`` compiled by numba, cached, and typed by plain argument types; with a
    wrapper Python can call if ``entry``.

    Integer and float division by zero give numpy's results (0, inf, nan) rather than raise:
    no division in the kernel has a divisor that can be 0 (die faces, lane lengths, constants),
    and the checks and the exception each would raise were compiled into every function that
    divides, 4% of the first compile (A/B, 3 rounds of each).

    Called from compiled code with a constant argument (an event kind, a cause, -1 for "no
    roll"), numba would compile a copy of the function, and of everything it calls, for each
    constant value: the kernel's first compile took twice as long for it. The dispatcher here
    types every call by the plain types of its arguments instead, so each function is compiled
    once. Compiled code lets go of the interpreter while it runs, so a race on one thread leaves
    the others (the editor's) free."""
    # numba's own options, not all of them in its type hints.
    options: dict[str, Any] = {"no_cpython_wrapper": not entry, "no_cfunc_wrapper": True}
    dispatcher: Any = numba.njit(cache=KEPT, nogil=True, error_model="numpy",
                                 inline="always" if inline else "never", **options)(function)
    by_literal = dispatcher.get_call_template
    plain: Callable[[Any], Any] = types.unliteral

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return by_literal(tuple(plain(a) for a in args), {k: plain(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    if KEPT:
        _one_writer_at_a_time(dispatcher)
    return cast(F, dispatcher)


def _one_writer_at_a_time(dispatcher: Any) -> None:
    """Make the dispatcher's cache files read under a shared lock, and written under an
    exclusive one, across processes (see :func:`_cache_lock`).

    numba writes each file of its cache atomically (a new file renamed over the old), but adds
    a compiled version of a function in two steps: it reads the function's index, picks the
    first number no version uses, writes the index with the new version under that number, and
    then the version's machine code in the file of that number. Two processes compiling two
    versions of one function at once (the race loop of two mixes of drivers: a test drive and
    the editor's live drive, or two test processes on a cold cache) both picked number 1: the
    index of one and the machine code of the other could end up together, and every process
    after them would run the race loop of one mix of drivers for the other's (a crash, or wrong
    races), until the kernel's source changed. With the lock, one process adds its version at
    a time, and none reads an index whose machine code is still being written."""
    files = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if files is None or not hasattr(files, "load") or not hasattr(files, "save"):
        return  # another numba, its cache made otherwise: left as it is
    load, save = files.load, files.save

    def locked_load(key: Any) -> Any:
        with _cache_lock(exclusive=False):
            return load(key)

    def locked_save(key: Any, data: Any) -> None:
        with _cache_lock(exclusive=True):
            save(key, data)

    files.load, files.save = locked_load, locked_save


@contextlib.contextmanager
def _cache_lock(exclusive: bool) -> Iterator[None]:
    """Hold the lock of the kernel's cache folder (the file ``saving.lock`` in it): shared to
    read a function's files, exclusive to write them. Released when the process ends, however
    it ends. Where there is no ``fcntl`` (Windows), or the lock file cannot be opened, no lock
    is taken: numba's files are written as they were before."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        CACHE.mkdir(parents=True, exist_ok=True)
        handle = os.open(CACHE / "saving.lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(handle)  # releases the lock


def _borrowed(context: Any, builder: Any, kind: Any, value: Any) -> Any:
    """``value`` of numba type ``kind`` with every array in it (tuples searched too) made a
    view of the same data that owns no reference (see :func:`borrow`)."""
    if isinstance(kind, types.Array):
        source = arrayobj.make_array(kind)(context, builder, value=value)
        view = arrayobj.make_array(kind)(context, builder)
        arrayobj.populate_array(view, data=source.data, shape=source.shape,
                                strides=source.strides, itemsize=source.itemsize, meminfo=None)
        return view._getvalue()
    if isinstance(kind, types.BaseTuple):
        members: Any = kind
        items = [_borrowed(context, builder, item, builder.extract_value(value, n))
                 for n, item in enumerate(members)]
        return context.make_tuple(builder, kind, items)
    return value


@intrinsic
def borrow(typingctx: Any, value: Any) -> Any:
    """In compiled code: ``value`` (an array, or a tuple of arrays, tuples and numbers) with
    its arrays as views that hold no reference to their memory.

    Compiled code counts the references to each array it is handed, with an atomic add and
    subtract, every time an array (or a tuple of them) is passed to a function or kept in a
    variable: the race loop hands the board's and the rules' two dozen arrays down to every
    step, and the counting took 13% (strong drivers) to 25% (random drivers) of a race's
    time, measured with perf. A view that holds no reference is counted by a test for zero
    instead. Only for arrays that outlive the compiled call: the race's arrays, which the
    Python caller holds until the call returns."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _borrowed(context, builder, value, args[0])

    return value(value), codegen


@inlined
def copy_into(target: Any, source: Any) -> None:
    """Copy the 1-D array ``source`` into ``target``, as long or longer, in compiled code.

    ``target[:] = source`` would do the same, but numba checks the shapes and formats its error
    message in compiled code: that message alone compiled numba's string formatting into the
    kernel, a few seconds of its first compile, and again into every function above it."""
    for k in range(len(source)):
        target[k] = source[k]
