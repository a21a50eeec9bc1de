#!/usr/bin/env bash
# Installs py-draughts (import name `draughts`), the opponent of bench/vs_pydraughts.sh,
# into its own virtual environment under target/pydraughts-venv. Pinned, so that the
# opponent's strength does not drift between runs; idempotent: a second run only checks.
#
#   bench/install-pydraughts.sh        # prints the venv's python on the last line
#
# Needs python3 (3.9+) with the venv module and access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.10.1
venv=target/pydraughts-venv
py="$venv/bin/python"
if [ -x "$py" ] && "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('py-draughts') != '$version')" 2>/dev/null; then
    echo "py-draughts $version already installed in $venv" >&2
else
    python3 -m venv "$venv"
    "$py" -m pip install -q --disable-pip-version-check "py-draughts==$version"
    echo "installed py-draughts $version in $venv" >&2
fi
"$py" -c "import draughts.engines.simple" # fails loudly if the install is broken
echo "$py"
