"""``python -m editor [TRACK]``."""

from editor.app import main

raise SystemExit(main())
