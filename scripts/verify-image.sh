#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the container image and proves what docs/operations.md ("Container image") promises, on a machine that
# reaches Debian's package mirrors but no image registry:
#   1. installs docker.io and mmdebstrap from Debian where missing (scripts/provision.sh --install); starts dockerd
#      by hand when none answers
#      (its pid kept, stopped again at the end)
#   2. builds the images the Dockerfile names FROM, locally: debian:bookworm-slim with mmdebstrap (minbase, merged
#      /usr, the official image's apt settings), and a stand-in for swift:X.Y-bookworm (the same minbase, the
#      packages the official Swift image installs, and the local toolchain copied in) — refused when X.Y is not
#      the local toolchain's version, so the tag cannot lie
#   3. builds the image (no cache; host network, for the runtime stage's apt-get of libcurl) and checks its
#      configuration: user, entrypoint, command, port, stop signal, health check, labels, drain grace, the binary's libraries
#   4. runs it: UID 10001; an arbitrary UID with --read-only, no capabilities and no-new-privileges; the health
#      check turning healthy on a port that is not 8080; README's example byte-identical over HTTP; JSON log
#      lines; `docker run -i … convert User` as a pipeline step with the CLI's exit statuses; `docker stop`
#      within 2 s and exit code 0, and with a stalled client still exit 0 (the drain ends before docker's SIGKILL)
# Prints one summary line last (image size, build time, stop time); exits non-zero at the first failure.
#
# Usage: scripts/verify-image.sh [--tag NAME] [--rebuild-bases] [--keep-image]
# Every server here listens on 127.0.0.1 only (host network): no published ports, no NAT.
set -euo pipefail
cd "$(dirname "$0")/.."

TAG=transformserver:verify
REBUILD_BASES=0
KEEP_IMAGE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) TAG="$2"; shift 2 ;;
    --rebuild-bases) REBUILD_BASES=1; shift ;;
    --keep-image) KEEP_IMAGE=1; shift ;;
    *) echo "usage: $0 [--tag NAME] [--rebuild-bases] [--keep-image]" >&2; exit 2 ;;
  esac
done

WORK=.build/verify-image
mkdir -p "$WORK"
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
SUITE=bookworm
CHECKS=0
STARTED_DOCKERD=""
CONTAINERS=()

say() { echo "verify-image: $*"; }
fail() {
  echo "verify-image: FAIL: $*" >&2
  echo "verify-image: FAIL $*"
  exit 1
}
pass() {
  CHECKS=$((CHECKS + 1))
  say "ok $CHECKS - $*"
}

cleanup() {
  local status=$?
  for name in "${CONTAINERS[@]}"; do docker rm -f "$name" >/dev/null 2>&1 || true; done
  if [ "$KEEP_IMAGE" = 0 ] && [ -n "${IMAGE_BUILT:-}" ]; then docker rmi -f "$TAG" >/dev/null 2>&1 || true; fi
  if [ -n "$STARTED_DOCKERD" ]; then
    kill "$STARTED_DOCKERD" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$STARTED_DOCKERD" 2>/dev/null || break; sleep 0.2; done
  fi
  exit "$status"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------------------------
# 1. A container engine from Debian's packages.
install_tools() {
  # The one provisioning step of the repository installs them (Debian's packages, apt-get, as root).
  bash scripts/provision.sh --install python3 dockerd mmdebstrap
}

start_engine() {
  if docker info >/dev/null 2>&1; then
    say "using the running docker daemon"
    return
  fi
  # No systemd here: run the daemon by hand. No bridge and no iptables rules: every container here uses the host's
  # loopback or no network at all.
  say "starting dockerd (log: $WORK/dockerd.log)"
  dockerd --bridge=none --iptables=false --ip-masq=false >"$WORK/dockerd.log" 2>&1 &
  STARTED_DOCKERD=$!
  for _ in $(seq 1 150); do
    docker info >/dev/null 2>&1 && return
    kill -0 "$STARTED_DOCKERD" 2>/dev/null || { tail -20 "$WORK/dockerd.log" >&2; fail "dockerd exited"; }
    sleep 0.2
  done
  fail "dockerd did not answer within 30 s"
}

# ---------------------------------------------------------------------------------------------------------------
# 2. The FROM images, built locally.
from_images() {
  grep -E '^FROM ' Dockerfile | awk '{print $2}'
}

# Writes the official debian images' apt settings into a root filesystem (mmdebstrap customize hook argument $1).
apt_settings_hook() {
  cat <<'HOOK'
set -e
root="$1"
mkdir -p "$root/etc/apt/apt.conf.d"
cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
echo 'Acquire::GzipIndexes "true";' >"$root/etc/apt/apt.conf.d/docker-gzip-indexes"
echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
printf 'Apt::AutoRemove::SuggestsImportant "false";\n' >"$root/etc/apt/apt.conf.d/docker-autoremove-suggests"
HOOK
}

# mmdebstrap with the settings both images share; extra arguments go before the suite.
debootstrap_image() {
  local output="$1"; shift
  mmdebstrap --variant=minbase --quiet \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook="$(apt_settings_hook)" \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
    "$@" "$SUITE" "$output" \
    "deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main" "deb $SECURITY_MIRROR $SUITE-security main"
}

build_debian_slim() {
  local tag="$1"
  say "building $tag with mmdebstrap (minbase, merged /usr)"
  local start=$SECONDS
  debootstrap_image "$WORK/debian-slim.tar"
  docker import --change 'CMD ["bash"]' "$WORK/debian-slim.tar" "$tag" >/dev/null
  rm -f "$WORK/debian-slim.tar"
  say "built $tag in $((SECONDS - start)) s"
}

# The packages the official swift:*-bookworm image installs (swiftlang/swift-docker, debian/12), with
# libstdc++-12-dev, which the static-stdlib link needs.
SWIFT_IMAGE_PACKAGES=binutils-gold,gcc,git,libcurl4-openssl-dev,libedit-dev,libicu-dev,libncurses-dev,libpython3-dev,libsqlite3-dev,libstdc++-12-dev,libxml2-dev,pkg-config,tzdata,uuid-dev,zlib1g-dev

build_swift_standin() {
  local tag="$1" toolchain="$2"
  say "building a stand-in for $tag: minbase + the official image's packages + the local toolchain ($toolchain)"
  local start=$SECONDS
  debootstrap_image "$WORK/swift.tar" \
    --aptopt='APT::Install-Recommends "true"' \
    --include="$SWIFT_IMAGE_PACKAGES" \
    --customize-hook="mkdir -p \"\$1/opt\" && cp -a '$toolchain' \"\$1/opt/swift\""
  docker import \
    --change 'ENV PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' "$WORK/swift.tar" "$tag" >/dev/null
  rm -f "$WORK/swift.tar"
  say "built $tag in $((SECONDS - start)) s"
}

# The local toolchain's folder (the one holding usr/bin/swift) and its major.minor version.
local_toolchain() {
  local swift
  swift=$(readlink -f "$(command -v swift)") || fail "no swift on PATH"
  dirname "$(dirname "$(dirname "$swift")")"
}
swift_version_of() {
  # "Swift version 6.3.1 (swift-6.3.1-RELEASE)" -> 6.3
  sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1
}

ensure_from_images() {
  local image
  for image in $(from_images); do
    case "$image" in
      debian:bookworm-slim)
        if [ "$REBUILD_BASES" = 1 ] || ! docker image inspect "$image" >/dev/null 2>&1; then
          build_debian_slim "$image"
        fi
        ;;
      swift:*-bookworm)
        local wanted local_version toolchain
        wanted=${image#swift:}; wanted=${wanted%-bookworm}
        toolchain=$(local_toolchain)
        local_version=$("$toolchain/usr/bin/swift" --version 2>&1 | swift_version_of)
        [ "$wanted" = "$local_version" ] \
          || fail "the Dockerfile builds with $image, but the local toolchain is Swift $local_version: the tag would lie"
        if [ "$REBUILD_BASES" = 1 ] || ! docker image inspect "$image" >/dev/null 2>&1; then
          build_swift_standin "$image" "$toolchain"
        fi
        local inside
        inside=$(docker run --rm --network none "$image" swift --version 2>&1 | swift_version_of)
        [ "$inside" = "$wanted" ] || fail "$image holds Swift $inside, not $wanted"
        pass "$image is local and its Swift is $inside, as its tag says"
        ;;
      *) fail "no local recipe for the base image $image" ;;
    esac
  done
}

# ---------------------------------------------------------------------------------------------------------------
# 3. The image and its configuration.
BUILD_SECONDS=0
build_image() {
  local version source
  version=$(git describe --always --dirty 2>/dev/null || echo dev)
  source=$(git remote get-url origin 2>/dev/null || echo https://example.invalid/transformserver)
  say "building $TAG (version $version; log: $WORK/build.log)"
  local start=$SECONDS
  # The legacy builder: BuildKit needs the buildx plugin, which Debian's docker.io client may lack.
  if ! DOCKER_BUILDKIT=0 docker build --no-cache --network host --build-arg "VERSION=$version" \
      --build-arg "SOURCE=$source" -t "$TAG" . >"$WORK/build.log" 2>&1; then
    tail -30 "$WORK/build.log" >&2
    fail "docker build failed"
  fi
  BUILD_SECONDS=$((SECONDS - start))
  IMAGE_BUILT=1
  IMAGE_VERSION=$version
  pass "the image builds (${BUILD_SECONDS} s, no cache)"
}

inspect() { docker image inspect -f "$1" "$TAG"; }

check_configuration() {
  [ "$(inspect '{{.Config.User}}')" = "10001:10001" ] || fail "USER is $(inspect '{{.Config.User}}'), not 10001:10001"
  pass "USER 10001:10001"
  [ "$(inspect '{{json .Config.Entrypoint}}')" = '["TransformServer"]' ] \
    || fail "ENTRYPOINT is $(inspect '{{json .Config.Entrypoint}}')"
  [ "$(inspect '{{json .Config.Cmd}}')" = '["serve","--config","/app/config"]' ] \
    || fail "CMD is $(inspect '{{json .Config.Cmd}}')"
  pass 'ENTRYPOINT ["TransformServer"] with CMD ["serve","--config","/app/config"]'
  [ "$(inspect '{{.Config.WorkingDir}}')" = /app ] || fail "WORKDIR is $(inspect '{{.Config.WorkingDir}}')"
  [ "$(inspect '{{json .Config.ExposedPorts}}')" = '{"8080/tcp":{}}' ] || fail "EXPOSE is $(inspect '{{json .Config.ExposedPorts}}')"
  [ "$(inspect '{{.Config.StopSignal}}')" = SIGTERM ] || fail "STOPSIGNAL is $(inspect '{{.Config.StopSignal}}')"
  [ "$(inspect '{{json .Config.Healthcheck.Test}}')" = '["CMD","TransformServer","healthcheck"]' ] \
    || fail "HEALTHCHECK is $(inspect '{{json .Config.Healthcheck.Test}}')"
  pass "WORKDIR /app, EXPOSE 8080, STOPSIGNAL SIGTERM, exec-form HEALTHCHECK through TransformServer healthcheck"
  local key
  for key in title description source licenses version; do
    [ -n "$(inspect "{{index .Config.Labels \"org.opencontainers.image.$key\"}}")" ] \
      || fail "label org.opencontainers.image.$key is missing"
  done
  [ "$(inspect '{{index .Config.Labels "org.opencontainers.image.version"}}')" = "$IMAGE_VERSION" ] \
    || fail "the version label is not the build argument"
  pass "the five OCI labels, version from the build argument ($IMAGE_VERSION)"
  local grace
  grace=$(inspect '{{range .Config.Env}}{{println .}}{{end}}' | sed -n 's/^TRANSFORM_DRAIN_GRACE_MS=//p')
  [ -n "$grace" ] && [ "$grace" -lt 10000 ] || fail "TRANSFORM_DRAIN_GRACE_MS ($grace) is not below docker stop's 10 s"
  pass "drainGraceMs $grace ms, below docker stop's default 10 s"
  local libraries
  libraries=$(docker run --rm --network none --entrypoint ldd "$TAG" /usr/local/bin/TransformServer) \
    || fail "ldd failed in the image"
  if grep -q 'not found' <<<"$libraries"; then fail "unresolved libraries: $libraries"; fi
  grep -q 'libz\.so' <<<"$libraries" || fail "the binary does not link zlib? $libraries"
  if grep -qi 'swift' <<<"$libraries"; then fail "the Swift runtime is linked dynamically: $libraries"; fi
  pass "ldd resolves every library in the image; the Swift runtime is static ($(wc -l <<<"$libraries") libraries)"
  if docker run --rm --network none --entrypoint /bin/sh "$TAG" -c \
      'command -v swift || command -v swiftc || command -v cc || ls /var/lib/apt/lists/*_Packages* 2>/dev/null' \
      | grep -q .; then
    fail "the runtime image holds a compiler or package lists"
  fi
  pass "no compiler and no package lists in the runtime image"
}

# ---------------------------------------------------------------------------------------------------------------
# 4. Running it.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# http METHOD PORT PATH [BODY]: prints the status line's code, then the body, into $WORK/response.
http() {
  local method="$1" port="$2" path="$3" body="${4:-}"
  python3 - "$method" "$port" "$path" "$body" "$WORK/response" <<'PY'
import http.client, sys
method, port, path, body, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
headers = {"Content-Type": "application/json"} if body else {}
c.request(method, path, body=body.encode() if body else None, headers=headers)
r = c.getresponse()
data = r.read()
open(out, "wb").write(data)
print(r.status)
PY
}

# run_server NAME PORT [docker run options…]: starts a detached server on 127.0.0.1:PORT, waits for its
# `listening on` line.
run_server() {
  local name="$1" port="$2"; shift 2
  docker rm -f "$name" >/dev/null 2>&1 || true
  CONTAINERS+=("$name")
  docker run -d --name "$name" --network host \
    -e TRANSFORM_LISTEN_HOST=127.0.0.1 -e "TRANSFORM_LISTEN_PORT=$port" "$@" "$TAG" >/dev/null
  for _ in $(seq 1 100); do
    docker logs "$name" 2>/dev/null | grep -q "listening on http://127.0.0.1:$port" && return
    [ "$(docker inspect -f '{{.State.Running}}' "$name")" = true ] \
      || { docker logs "$name" >&2; fail "$name exited before listening"; }
    sleep 0.1
  done
  docker logs "$name" >&2
  fail "$name did not print its listening line within 10 s"
}

process_uid() {
  local pid
  pid=$(docker inspect -f '{{.State.Pid}}' "$1")
  awk '/^Uid:/ {print $2}' "/proc/$pid/status"
}

STOP_SECONDS=""
check_default_run() {
  local port name=transformserver-verify-default
  port=$(free_port)
  run_server "$name" "$port"
  [ "$(process_uid "$name")" = 10001 ] || fail "the server runs as UID $(process_uid "$name"), not 10001"
  pass "the server runs as UID 10001"

  # README's example, byte for byte: its request body and path, and the body it says comes back.
  local payload path expected
  payload=$(sed -n "s/^curl -i .*-d '\(.*\)' localhost:8080\(\/[^ ]*\)$/\1/p" README.md | head -1)
  path=$(sed -n "s/^curl -i .*-d '\(.*\)' localhost:8080\(\/[^ ]*\)$/\2/p" README.md | head -1)
  expected=$(grep -A1 'and the body$' README.md | sed -n 's/^`\(.*\)`\.$/\1/p' | head -1)
  [ -n "$payload" ] && [ -n "$path" ] && [ -n "$expected" ] || fail "README's example could not be read"
  [ "$(http POST "$port" "$path" "$payload")" = 200 ] || fail "README's example did not answer 200: $(cat "$WORK/response")"
  printf '%s' "$expected" | cmp -s - "$WORK/response" \
    || fail "README's example answered $(cat "$WORK/response"), not $expected"
  pass "README's example answers 200 with the README's bytes"

  local status=""
  for _ in $(seq 1 60); do
    status=$(docker inspect -f '{{.State.Health.Status}}' "$name")
    [ "$status" = healthy ] && break
    [ "$status" = unhealthy ] && fail "the container turned unhealthy"
    sleep 1
  done
  [ "$status" = healthy ] || fail "the container was not healthy within 60 s ($status)"
  pass "HEALTHCHECK turns healthy on port $port (not 8080): it follows the configured port"

  # Logs: every line a JSON object, except the listening line.
  docker logs "$name" >"$WORK/logs.txt" 2>&1
  python3 - "$WORK/logs.txt" <<'PY' || fail "a log line is not a JSON object (see $WORK/logs.txt)"
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    if not line or line.startswith("listening on http://"):
        continue
    if not isinstance(json.loads(line), dict):
        raise SystemExit(f"not an object: {line}")
PY
  pass "every log line is a JSON object ($(wc -l <"$WORK/logs.txt") lines)"

  local start end
  start=$(date +%s.%N)
  docker stop "$name" >/dev/null
  end=$(date +%s.%N)
  STOP_SECONDS=$(python3 -c "print(f'{$end - $start:.2f}')")
  python3 -c "import sys; sys.exit(0 if $end - $start < 2 else 1)" || fail "docker stop took ${STOP_SECONDS} s (over 2 s)"
  local code
  code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
  [ "$code" = 0 ] || fail "the container exited with $code after docker stop"
  docker logs "$name" 2>&1 | grep -q '"event":"stopped"' || fail "no stopped event after docker stop"
  pass "docker stop drains and exits 0 in ${STOP_SECONDS} s"
}

check_locked_down_run() {
  local port name=transformserver-verify-locked
  port=$(free_port)
  run_server "$name" "$port" --user 12345:12345 --read-only --cap-drop ALL --security-opt no-new-privileges
  [ "$(process_uid "$name")" = 12345 ] || fail "the server runs as UID $(process_uid "$name"), not 12345"
  [ "$(http GET "$port" /health)" = 200 ] || fail "/health answered $(cat "$WORK/response")"
  grep -q '"schemaPersistence":"memory"' "$WORK/response" || fail "/health does not say memory: $(cat "$WORK/response")"
  [ "$(http POST "$port" /convert/User '{"uid":"7"}')" = 200 ] || fail "conversion failed: $(cat "$WORK/response")"
  [ "$(cat "$WORK/response")" = '{"uid":7}' ] || fail "conversion answered $(cat "$WORK/response")"
  docker stop "$name" >/dev/null
  [ "$(docker inspect -f '{{.State.ExitCode}}' "$name")" = 0 ] || fail "the locked-down container did not exit 0"
  pass "UID 12345 with --read-only, --cap-drop ALL, no-new-privileges: serves, says memory, exits 0"
}

# A client that sends a request head and then stalls: the drain waits for it up to the image's drainGraceMs (8 s),
# closes it, and exits 0 — before docker stop's 10 s would SIGKILL the process (exit 137).
check_slow_client_stop() {
  local port name=transformserver-verify-slow
  port=$(free_port)
  run_server "$name" "$port"
  python3 - "$port" <<'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /convert/User HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n{")
s.settimeout(20)
try:
    s.recv(1)  # the drain closes it
except OSError:
    pass
PY
  local client=$!
  sleep 0.5
  local start end seconds code
  start=$(date +%s.%N)
  docker stop "$name" >/dev/null
  end=$(date +%s.%N)
  wait "$client" || true
  seconds=$(python3 -c "print(f'{$end - $start:.1f}')")
  code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
  [ "$code" = 0 ] || fail "with a stalled client, docker stop ended the container with $code after ${seconds} s"
  docker logs "$name" 2>&1 | grep -q '"event":"drain_forced_close"' || fail "no drain_forced_close event"
  pass "a stalled client: the drain gives up after drainGraceMs and exits 0 (${seconds} s, under docker stop's 10 s)"
}

check_pipeline() {
  local out status
  out=$(printf '%s' '{"uid":"123","name":"Harry"}' | docker run -i --rm --network none "$TAG" convert User 2>/dev/null)
  [ "$out" = '{"uid":123,"name":"Harry"}' ] || fail "convert User wrote $out"
  printf '{"uid":1}\n{"uid":"2"}\n' | docker run -i --rm --network none "$TAG" convert User --ndjson \
    >"$WORK/ndjson.out" 2>/dev/null || fail "convert --ndjson failed"
  printf '{"uid":1}\n{"uid":2}\n' | cmp -s - "$WORK/ndjson.out" || fail "convert --ndjson wrote $(cat "$WORK/ndjson.out")"
  status=0
  printf '{"uid":' | docker run -i --rm --network none "$TAG" convert User >/dev/null 2>&1 || status=$?
  [ "$status" = 1 ] || fail "invalid JSON exited $status, not 1"
  status=0
  printf '{}' | docker run -i --rm --network none "$TAG" convert NoSuchModel >/dev/null 2>&1 || status=$?
  [ "$status" = 2 ] || fail "an unknown model exited $status, not 2"
  status=0
  printf '{"uid":1}' | docker run -i --rm --network none --user 4242 --read-only "$TAG" convert User >/dev/null 2>&1 \
    || status=$?
  [ "$status" = 0 ] || fail "convert under an arbitrary UID and --read-only exited $status"
  pass "docker run -i IMAGE convert User is a pipeline step (JSON, NDJSON; exit 0, 1, 2; any UID, read-only)"
}

# ---------------------------------------------------------------------------------------------------------------
install_tools
start_engine
ensure_from_images
build_image
check_configuration
check_default_run
check_locked_down_run
check_slow_client_stop
check_pipeline

SIZE=$(inspect '{{.Size}}')
SIZE_MB=$(python3 -c "print(f'{$SIZE / 1e6:.1f}')")
say "PASS: $CHECKS checks; image $TAG $SIZE_MB MB, build ${BUILD_SECONDS} s, docker stop ${STOP_SECONDS} s (exit 0), Swift $(local_toolchain >/dev/null; "$(local_toolchain)/usr/bin/swift" --version 2>&1 | swift_version_of), docker $(docker version -f '{{.Server.Version}}')"
