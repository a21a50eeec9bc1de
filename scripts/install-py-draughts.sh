#!/usr/bin/env bash
# Installs py-draughts (PyPI name `py-draughts`, import name `draughts`) into its own virtual
# environment under target/py-draughts-venv: the PDN reader of scripts/pdn_interop.sh and the
# opponent of lab/vs_pydraughts.sh, from the one install. Not pydraughts (a different package
# with the same import name, see scripts/install-pydraughts-hub.sh): the two cannot share a
# venv. Pinned, so the library's behaviour and the opponent's strength do not drift;
# idempotent: a second run only checks.
#
#   scripts/install-py-draughts.sh     # prints the venv's python on the last line
#
# Needs python3 (3.9+) with the venv module and access to PyPI.
set -euo pipefail
exec "$(dirname "$0")/install-venv.sh" target/py-draughts-venv py-draughts 1.10.1 \
    "from draughts import AmericanBoard; import draughts.engines.simple"
