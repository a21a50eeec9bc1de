#!/usr/bin/env bash
# Installs py-draughts (import name `draughts`), the opponent of lab/vs_pydraughts.sh,
# into its own virtual environment under target/pydraughts-venv. Pinned, so that the
# opponent's strength does not drift between runs; idempotent: a second run only checks.
#
#   lab/install-pydraughts.sh        # prints the venv's python on the last line
#
# Needs python3 (3.9+) with the venv module and access to PyPI.
set -euo pipefail
exec "$(dirname "$0")/../scripts/install-venv.sh" target/pydraughts-venv py-draughts 1.10.1 \
    "import draughts.engines.simple"
