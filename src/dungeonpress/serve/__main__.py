"""`python -m dungeonpress.serve CONFIG_JSON`: the server process that `dungeonpress serve` becomes."""

import json
import sys

from dungeonpress.serve import run

config = json.loads(sys.argv[1])
quiet = config.pop("quiet")
sys.exit(run(**config, log=None if quiet else sys.stderr))
