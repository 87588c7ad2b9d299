"""`python -m dungeonpress`: the same as the `dungeonpress` command."""

import sys

from dungeonpress.cli import main

sys.exit(main())
