#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Provisioning: the ONE step that installs system packages (Debian/Ubuntu, apt-get, as root). Nothing else in the
# repository installs anything outside the build folders; Python tools go into virtual environments under
# .build/venv (scripts/python-env.sh). scripts/test.sh runs this script only when CI=true; elsewhere it runs
# `provision.sh --check` and skips, with the reason, each stage whose tool is missing.
#
#   bash scripts/provision.sh            install the Debian packages of every missing tool (apt-get; root)
#   bash scripts/provision.sh --check    print which tools are missing and how to get them; change nothing
#   bash scripts/provision.sh --list     print the table below
#   bash scripts/provision.sh --has T…   exit 0 when every named tool is present (used by the test stages)
#   bash scripts/provision.sh --install T…   install the named tools only (ON_REQUEST's too)
#
# To add a tool, add one line to TOOLS: its name (what stages ask for), a shell test that is true when it is
# present, the Debian packages that bring it, and what needs it. Keep one line per tool so that merges are easy.
set -euo pipefail
cd "$(dirname "$0")/.."

# name | present when | Debian packages | needed by
TOOLS=(
  "python3|command -v python3|python3|the Python tools' virtual environments, benchmark reports"
  "venv|python3 -c 'import venv, ensurepip'|python3-venv|the virtual environments under .build/venv (Debian's python3 lacks ensurepip)"
  "promtool|command -v promtool|prometheus|the /metrics exposition check (swift test)"
  "valgrind|command -v valgrind|valgrind|instruction counts (benchmark smoke, core)"
  "wrk|command -v wrk|wrk|the HTTP benchmark smoke"
  "nginx|PATH=$PATH:/usr/sbin command -v nginx|nginx-light|the HTTP benchmark smoke (the nginx peer)"
  "curl|command -v curl|curl|the HTTP benchmark smoke, scripts/api-examples.sh"
  "gcc|command -v gcc|gcc|the HTTP benchmark smoke (Benchmarks/http/idle_clients.c)"
  "taskset|command -v taskset|util-linux|the HTTP benchmark smoke (CPU pinning)"
  "unshare|command -v unshare|util-linux|the static binary check (a mount namespace hides the toolchain)"
  "libcurl-dev|test -e /usr/include/x86_64-linux-gnu/curl/curl.h -o -e /usr/include/aarch64-linux-gnu/curl/curl.h -o -e /usr/include/curl/curl.h|libcurl4-openssl-dev|the build (Sources/CCurl: the etcd registry store, docs/cluster.md)"
  "etcd|command -v etcd|etcd-server|the cluster tests (swift test: a real three-member etcd, docs/cluster.md)"
  "clang-format|command -v clang-format|clang-format|scripts/validate.sh (the C targets' layout, .clang-format)"
)

# Tools that no stage of scripts/test.sh needs, installed only when named (`--install T…`), same columns.
ON_REQUEST=(
  "dockerd|command -v dockerd|docker.io cgroupfs-mount|scripts/verify-image.sh (builds and runs the image)"
  "mmdebstrap|command -v mmdebstrap|mmdebstrap gpg|scripts/verify-image.sh (the base images, built locally)"
)

field() { local IFS='|'; read -r -a parts <<<"$1"; echo "${parts[$2]}"; }

present() {
  local line
  for line in "${TOOLS[@]}" "${ON_REQUEST[@]}"; do
    if [ "$(field "$line" 0)" = "$1" ]; then
      bash -c "$(field "$line" 1)" >/dev/null 2>&1
      return
    fi
  done
  echo "provision.sh: no tool named $1 (see scripts/provision.sh --list)" >&2
  return 2
}

# The lines of the missing tools: every tool of TOOLS, or only those named.
missing_lines() {
  local line
  for line in "${TOOLS[@]}" "${ON_REQUEST[@]}"; do
    if [ $# -gt 0 ]; then [[ " $* " == *" $(field "$line" 0) "* ]] || continue
    else [[ " ${ON_REQUEST[*]} " != *"$line"* ]] || continue; fi
    present "$(field "$line" 0)" || echo "$line"
  done
}

case ${1:-install} in
  --list)
    for line in "${TOOLS[@]}" "${ON_REQUEST[@]}"; do
      printf '%-9s apt: %-12s for %s\n' "$(field "$line" 0)" "$(field "$line" 2)" "$(field "$line" 3)"
    done
    ;;
  --has)
    shift
    for tool in "$@"; do present "$tool" || exit 1; done
    ;;
  --check)
    lines=$(missing_lines)
    if [ -z "$lines" ]; then echo "provision: every tool is present"; exit 0; fi
    while read -r line; do
      echo "provision: missing $(field "$line" 0) (apt-get install $(field "$line" 2)), needed by $(field "$line" 3)"
    done <<<"$lines"
    echo "provision: run 'bash scripts/provision.sh' as root to install them; their stages are skipped until then"
    ;;
  install | --install)
    [ "${1:-install}" = install ] || shift
    names=("$@")
    lines=$(missing_lines "${names[@]}")
    if [ -z "$lines" ]; then echo "provision: every tool is present, nothing installed"; exit 0; fi
    packages=$(while read -r line; do field "$line" 2; done <<<"$lines" | sort -u | tr '\n' ' ')
    if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
      echo "provision: needs root and apt-get to install: $packages" >&2
      exit 1
    fi
    echo "provision: apt-get install $packages"
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    # shellcheck disable=SC2086 # one package per word
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
      $packages >/dev/null
    still=$(missing_lines "${names[@]}")
    if [ -n "$still" ]; then
      echo "provision: still missing after the install: $(while read -r line; do field "$line" 0; done <<<"$still" | tr '\n' ' ')" >&2
      exit 1
    fi
    echo "provision: done"
    ;;
  *)
    echo "usage: scripts/provision.sh [--check | --list | --has TOOL… | --install TOOL…]" >&2
    exit 2
    ;;
esac
