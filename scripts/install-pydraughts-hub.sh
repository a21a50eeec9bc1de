#!/usr/bin/env bash
# Installs pydraughts (PyPI name `pydraughts`, import name `draughts`), the Hub-protocol client
# whose HubEngine and RoundRobin drive buffgreen in scripts/hub_pydraughts.py, into its own
# virtual environment under target/pydraughts-hub-venv. Not py-draughts (a different package
# with the same import name, see scripts/install-py-draughts.sh): the two cannot share a venv.
# Pinned, so the client's behaviour does not drift; idempotent: a second run only checks.
#
#   scripts/install-pydraughts-hub.sh     # prints the venv's python on the last line
#
# Needs python3 (3.8+) with the venv module and access to PyPI.
set -euo pipefail
exec "$(dirname "$0")/install-venv.sh" target/pydraughts-hub-venv pydraughts 0.6.7 \
    "from draughts.engine import HubEngine; from draughts.tournament import RoundRobin"
