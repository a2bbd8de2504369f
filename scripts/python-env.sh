# SPDX-License-Identifier: Apache-2.0
#
# Sourced by the scripts here (the working directory is the repository), or run as `bash scripts/python-env.sh
# NAME…`: `python_env NAME` makes the virtual environment .build/venv/NAME hold exactly the pinned packages of
# scripts/requirements/NAME.txt (one environment per tool, so their pins never meet), and sets PYTHON_ENV to its
# folder. It never installs into the Python it was started with: `python3 -m venv` (PYTHON overrides python3), then
# that environment's own pip. Returns 1 with the reason on standard error when the environment cannot be made
# (no python3, no venv module — Debian's python3-venv, see scripts/provision.sh — or the packages cannot be had).
# An environment is rebuilt only when its requirements file changes.

python_env() {
  local name=$1
  local requirements=scripts/requirements/$name.txt dir=.build/venv/$name
  PYTHON_ENV=$PWD/$dir
  if [ ! -f "$requirements" ]; then
    echo "python-env: no $requirements" >&2
    return 1
  fi
  if [ -f "$dir/requirements.txt" ] && cmp -s "$requirements" "$dir/requirements.txt"; then
    return 0
  fi
  local python=${PYTHON:-python3}
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "python-env: $python not found (bash scripts/provision.sh installs it)" >&2
    return 1
  fi
  rm -rf "$dir"
  mkdir -p .build/venv
  if ! "$python" -m venv "$dir" >"$dir.log" 2>&1; then
    echo "python-env: '$python -m venv' failed (Debian needs python3-venv: bash scripts/provision.sh); see $dir.log" >&2
    rm -rf "$dir"
    return 1
  fi
  echo "python-env: installing $(grep -v '^#' "$requirements" | tr '\n' ' ')into $dir"
  if ! PIP_DISABLE_PIP_VERSION_CHECK=1 "$dir/bin/python" -m pip install -q -r "$requirements" >>"$dir.log" 2>&1; then
    echo "python-env: pip could not install $requirements into $dir; see $dir.log" >&2
    tail -3 "$dir.log" >&2
    rm -rf "$dir"
    return 1
  fi
  # Written last: its presence says the environment is complete.
  cp "$requirements" "$dir/requirements.txt"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  cd "$(dirname "$0")/.."
  for name in "$@"; do python_env "$name"; echo "$PYTHON_ENV"; done
fi
