#!/usr/bin/env bash
# Prepare the CI OpenID Connect provider: venv, dependencies, DB, RSA key, user, clients.
# Idempotent and safe to re-run. Usage: ci-oidc/setup.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv"
PY="${PYTHON:-python3}"
export LATCHKEY_OIDC_WORKDIR="${LATCHKEY_OIDC_WORKDIR:-$HERE/.work}"
start=$(date +%s)

if [ ! -x "$VENV/bin/python" ]; then
  echo "ci-oidc: creating venv at $VENV"
  "$PY" -m venv "$VENV"
fi

# Install only when requirements.txt changed since the last successful install.
stamp="$VENV/.requirements.sha256"
want="$(sha256sum "$HERE/requirements.txt" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "ci-oidc: installing requirements"
  "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q -r "$HERE/requirements.txt"
  echo "$want" > "$stamp"
fi

mkdir -p "$LATCHKEY_OIDC_WORKDIR"
cd "$HERE/project"
"$VENV/bin/python" manage.py migrate --noinput -v 0
"$VENV/bin/python" manage.py seed_latchkey
echo "ci-oidc: setup done in $(( $(date +%s) - start ))s (work dir $LATCHKEY_OIDC_WORKDIR)"
