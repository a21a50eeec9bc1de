#!/usr/bin/env bash
# Installs one pinned PyPI package into its own virtual environment under target/ (shared by
# the install-*.sh scripts). Idempotent: a second run only checks the installed version.
#
#   scripts/install-venv.sh <venv dir> <package> <version> <python check statement>
#
# Prints the venv's python on the last line. Needs python3 with the venv module and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$1 package=$2 version=$3 check=$4
py="$venv/bin/python"
if [ -x "$py" ] && "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('$package') != '$version')" 2>/dev/null; then
    echo "$package $version already installed in $venv" >&2
else
    python3 -m venv "$venv"
    "$py" -m pip install -q --disable-pip-version-check "$package==$version"
    echo "installed $package $version in $venv" >&2
fi
"$py" -c "$check" # fails loudly if the install is broken
echo "$py"
