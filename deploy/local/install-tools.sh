#!/usr/bin/env bash
# Installs everything the local cluster and the tests need, on a fresh machine: etcd, containerd,
# runc, the CNI plugins, umoci, debootstrap and iptables (Debian); kube-apiserver,
# kube-controller-manager, kube-scheduler, the kubelet and kubectl of one Kubernetes
# release built from the Go module proxy, and helm. Builds are cached by version and only missing
# binaries are built, so a second run costs seconds. Also lays the binaries out where fabric8
# kube-api-test looks for them, and builds the local node's JRE base images (images.sh jre).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
KUBE_API_TEST_DIR="${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}"


apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

K8S_COMMANDS=(kube-apiserver kube-controller-manager kube-scheduler kubelet kubectl)

build_kubernetes() {
  local missing=() cmd
  for cmd in "${K8S_COMMANDS[@]}"; do [ -x "$K8S_BIN/$cmd" ] || missing+=("$cmd"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "building ${missing[*]} v$K8S_VERSION from the Go module proxy (on 2 cores: the kubelet about 10 minutes, the rest about 7)"
  local work minor
  work="$(mktemp -d)"
  minor="$(cut -d. -f2 <<<"$K8S_VERSION")"
  (
    cd "$work"
    # k8s.io/kubernetes points its staging modules at ./staging; replace each with the published
    # k8s.io/<name> v0.<minor>.<patch> of the same release.
    local gomod
    gomod="$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')"
    {
      echo "module local/k8sbins"
      echo "go 1.26"
      echo "require k8s.io/kubernetes v$K8S_VERSION"
      echo "replace ("
      sed -n 's#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*#\t\1 => \1 v0.'"${K8S_VERSION#*.}"'#p' "$gomod"
      echo ")"
    } >go.mod
    # Every command is imported, built or not, so that go.sum covers whichever is missing.
    {
      printf '//go:build tools\n\npackage tools\n\nimport (\n'
      for cmd in "${K8S_COMMANDS[@]}"; do printf '\t_ "k8s.io/kubernetes/cmd/%s"\n' "$cmd"; done
      printf ')\n'
    } >tools.go
    go mod tidy >/dev/null 2>&1 || go mod tidy
    local ldflags=""
    for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
      ldflags+=" -X $pkg.gitVersion=v$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    done
    mkdir -p "$K8S_BIN"
    for cmd in "${missing[@]}"; do
      go build -ldflags "$ldflags" -o "$K8S_BIN/$cmd.tmp" "k8s.io/kubernetes/cmd/$cmd"
      mv "$K8S_BIN/$cmd.tmp" "$K8S_BIN/$cmd"
    done
  )
  rm -rf "$work"
}

build_helm() {
  [ -x "$HELM_BIN/helm" ] && return 0
  log "building helm v$HELM_VERSION from the Go module proxy (about 3 minutes)"
  mkdir -p "$HELM_BIN"
  GOBIN="$HELM_BIN" go install "helm.sh/helm/v3/cmd/helm@v$HELM_VERSION"
}

layout_for_kube_api_test() {
  # kube-api-test reads <dir>/k8s/<X.Y.Z>-linux-amd64/{etcd,kube-apiserver,kubectl}.
  local dir="$KUBE_API_TEST_DIR/k8s/$K8S_VERSION-linux-amd64"
  mkdir -p "$dir"
  ln -sfn "$(command -v etcd)" "$dir/etcd"
  ln -sfn "$K8S_BIN/kube-apiserver" "$dir/kube-apiserver"
  ln -sfn "$K8S_BIN/kubectl" "$dir/kubectl"
}

# The flag-policy tests check the JDK 21 flag list against a real JDK 21: none is packaged for this
# Debian release, so they run the one in the JRE 21 image's root file system (in a chroot, as root).
unpack_jre21() {
  local tar="$JTO_CACHE/images/rootfs/jre21.tar.gz" dir="$JTO_CACHE/jre21-rootfs"
  if [ -x "$dir/usr/lib/jvm/java-21-openjdk-amd64/bin/java" ] || [ ! -f "$tar" ]; then return 0; fi
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  tar --numeric-owner -C "$dir.tmp" -xzf "$tar" && rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

mkdir -p "$JTO_CACHE"
# One apt call: etcd for the control plane; containerd, runc, the CNI plugins and iptables for the
# node; umoci, debootstrap and jq for the images (deploy/local/images.sh).
apt_install etcd-server openssl curl bc prometheus containerd runc containernetworking-plugins iptables umoci debootstrap jq
command -v go >/dev/null || apt_install golang-go
# Debian's packages may start system services; the scripts start their own instances.
for service in etcd prometheus containerd; do
  if command -v systemctl >/dev/null && systemctl is-active --quiet "$service" 2>/dev/null; then systemctl stop "$service" || true; fi
done
build_kubernetes &
k8s_pid=$!
# The JRE base images' debootstraps wait on the network and dpkg, not the CPU: beside the Go builds
# they cost a cold run almost nothing.
"$REPO_ROOT/deploy/local/images.sh" jre &
jre_pid=$!
build_helm
wait "$k8s_pid"
wait "$jre_pid"
layout_for_kube_api_test
unpack_jre21
log "ready: $K8S_BIN, $HELM_BIN/helm, $KUBE_API_TEST_DIR"
