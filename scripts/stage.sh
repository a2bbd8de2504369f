# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts here (the working directory is the repository): `stage NAME COMMAND…` runs COMMAND
# between two lines that name the stage, the second with how many seconds it took.
stage() {
  local name=$1; shift
  local start=$SECONDS
  echo "==> $name"
  "$@"
  echo "==> $name: $((SECONDS - start)) s"
}

# shellcheck source=scripts/python-env.sh
source scripts/python-env.sh

# `needs WHAT…`: true when every WHAT can be had — a tool named in scripts/provision.sh, or `venv:NAME`, the virtual
# environment of scripts/python-env.sh (made here when missing). Otherwise it prints why and returns 1, except under
# CI=true, where it ends the run: CI provisions everything, so a skipped stage there would hide a broken install.
needs() {
  local what
  for what in "$@"; do
    case $what in
      venv:*) python_env "${what#venv:}" && continue ;;
      *) bash scripts/provision.sh --has "$what" && continue
         echo "missing $what ($(bash scripts/provision.sh --list | grep "^$what " | sed 's/  */ /g'))" >&2 ;;
    esac
    if [ "${CI:-}" = true ]; then
      echo "FAILED: $what is missing under CI=true" >&2
      exit 1
    fi
    return 1
  done
}

# `stage_needing "WHAT…" NAME COMMAND…`: `stage NAME COMMAND…` when `needs WHAT…`; else one line saying that the
# stage is skipped and why (the reason is printed by `needs` just before it).
stage_needing() {
  local what=$1 name=$2; shift 2
  # shellcheck disable=SC2086 # one need per word
  if needs $what; then
    stage "$name" "$@"
  else
    echo "==> $name: SKIPPED (needs $what; bash scripts/provision.sh installs the system tools)"
  fi
}
