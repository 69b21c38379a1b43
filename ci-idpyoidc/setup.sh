#!/usr/bin/env bash
# Prepare the CI idpyoidc provider: a venv with the pinned requirements. Idempotent and safe to re-run.
# Usage: ci-idpyoidc/setup.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv"
PY="${PYTHON:-python3}"
start=$(date +%s)

if [ ! -x "$VENV/bin/python" ]; then
  echo "ci-idpyoidc: creating venv at $VENV"
  "$PY" -m venv "$VENV"
fi

# Install only when requirements.txt changed since the last successful install.
stamp="$VENV/.requirements.sha256"
want="$(sha256sum "$HERE/requirements.txt" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "ci-idpyoidc: installing requirements"
  "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q -r "$HERE/requirements.txt"
  echo "$want" > "$stamp"
fi
echo "ci-idpyoidc: setup done in $(( $(date +%s) - start ))s"
