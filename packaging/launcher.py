"""The frozen app's entry point: the same as the ``sightline`` command (``app.cli:main``)."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
