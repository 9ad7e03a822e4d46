"""Check that the system libraries Qt's X11 platform plugin loads are all present; install the
missing ones on Debian when run as root, or print the exact command.

    python tools/gui_libs.py            check, and install what is missing (root, apt-get)
    python tools/gui_libs.py --check    only say what is missing; exit 1 if anything is

Desktops have these libraries; a bare machine or a container often has some and not others, and
Qt then aborts with a message naming only the first it missed. Checking one package is not enough,
so every library the plugin links to is asked of the dynamic linker (``ldd``), plus the ones Qt
opens at run time, and each missing one is named with the Debian package that ships it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

LOADED_AT_RUN_TIME = ("libxcb-cursor.so.0",)
"""Libraries Qt's xcb plugin opens itself when it starts, which ``ldd`` cannot see."""

NAMED_OTHERWISE = {"libglib-2.0.so.0": "libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0"}
"""Libraries whose Debian package does not follow the naming policy."""

_SONAME = re.compile(r"^(?P<base>lib[\w+.-]*?)\.so(?:\.(?P<major>\d+))?")


def xcb_plugin() -> Path | None:
    """The X11 platform plugin of the installed PySide6, or None without PySide6."""
    try:
        import PySide6
    except ImportError:
        return None
    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def not_found(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as not found, each once, in the order given."""
    missing: dict[str, None] = {}
    for line in ldd_output.splitlines():
        name, arrow, where = line.strip().partition("=>")
        if arrow and where.strip() == "not found":
            missing[name.strip()] = None
    return list(missing)


def debian_package(soname: str) -> str:
    """The Debian package that ships a shared library, by Debian's naming policy: the library's
    name in lower case followed by its major version, with a hyphen when the name ends in a digit
    (``libxcb-icccm.so.4`` -> ``libxcb-icccm4``, ``libxkbcommon-x11.so.0`` ->
    ``libxkbcommon-x11-0``)."""
    if soname in NAMED_OTHERWISE:
        return NAMED_OTHERWISE[soname]
    match = _SONAME.match(soname)
    if match is None:
        return soname
    base, major = match["base"].lower(), match["major"] or ""
    if not major:
        return base
    return f"{base}-{major}" if base[-1].isdigit() else f"{base}{major}"


def _linker_knows(soname: str) -> bool:
    if shutil.which("ldconfig") is None:
        return True  # cannot tell: leave it to Qt
    listing = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=False)
    return f"{soname} " in listing.stdout


def missing_libraries(plugin: Path) -> list[str]:
    """Every library the plugin needs that the dynamic linker cannot find."""
    result = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=False)
    missing = not_found(result.stdout)
    missing += [name for name in LOADED_AT_RUN_TIME
                if name not in missing and not _linker_knows(name)]
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only report; exit 1 if missing")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux") or shutil.which("ldd") is None:
        return 0
    plugin = xcb_plugin()
    if plugin is None:
        return 0
    missing = missing_libraries(plugin)
    if not missing:
        return 0
    packages = list(dict.fromkeys(debian_package(name) for name in missing))
    command = f"apt-get install -y {' '.join(packages)}"
    print(f"The editor's window system plugin needs {len(missing)} missing system "
          f"{'library' if len(missing) == 1 else 'libraries'}: {', '.join(missing)}.")
    can_install = os.geteuid() == 0 and shutil.which("apt-get") is not None
    if args.check or not can_install:
        print(f"Install them with: sudo {command}" if shutil.which("apt-get")
              else "Install them with your system's package manager.")
        return 1
    print(f"Installing: {command}")
    subprocess.run(["apt-get", "update", "-qq"], check=False)
    if subprocess.run(command.split(), check=False).returncode != 0:
        print(f"Could not install them; try: sudo {command}")
        return 1
    still = missing_libraries(plugin)
    if still:
        print(f"Still missing after the install: {', '.join(still)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
