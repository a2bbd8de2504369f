# Sourced by the scripts here: `stage NAME COMMAND…` runs COMMAND between two lines that name the stage, the
# second with how many seconds it took.
stage() {
  local name=$1; shift
  local start=$SECONDS
  echo "==> $name"
  "$@"
  echo "==> $name: $((SECONDS - start)) s"
}
