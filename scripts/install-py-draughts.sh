#!/usr/bin/env bash
# Installs py-draughts (PyPI name `py-draughts`, import name `draughts`) into its own virtual
# environment under target/py-draughts-venv. Not pydraughts (a different package with the same
# import name, see scripts/install-pydraughts-hub.sh): the two cannot share a venv. Pinned, so
# the library's behaviour does not drift; idempotent: a second run only checks.
#
#   scripts/install-py-draughts.sh     # prints the venv's python on the last line
#
# Needs python3 (3.8+) with the venv module and access to PyPI.
set -euo pipefail
exec "$(dirname "$0")/install-venv.sh" target/py-draughts-venv py-draughts 1.10.1 \
    "from draughts import AmericanBoard"
