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
  # Another run's apt holds dpkg's lock for a while: wait for it rather than fail.
  local apt=($sudo env DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=600 -o Acquire::Retries=3)
  retry "apt-get update" "${apt[@]}" update
  retry "apt-get install ${missing[*]}" "${apt[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null
}

K8S_COMMANDS=(kube-apiserver kube-controller-manager kube-scheduler kubelet kubectl)

build_kubernetes() {
  local missing=() cmd
  for cmd in "${K8S_COMMANDS[@]}"; do cache_ok "$K8S_BIN/$cmd" || missing+=("$cmd"); done
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
    retry "Go module k8s.io/kubernetes@v$K8S_VERSION" quietly "$JTO_CACHE/logs/kubernetes.log" go mod download "k8s.io/kubernetes@v$K8S_VERSION"
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
    # tidy downloads every module the commands import, so the builds below need no network.
    retry "Go modules of Kubernetes v$K8S_VERSION" quietly "$JTO_CACHE/logs/kubernetes.log" go mod tidy
    local ldflags=""
    for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
      ldflags+=" -X $pkg.gitVersion=v$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    done
    mkdir -p "$K8S_BIN"
    for cmd in "${missing[@]}"; do
      go build -ldflags "$ldflags" -o "$K8S_BIN/$cmd.tmp.$$" "k8s.io/kubernetes/cmd/$cmd"
      cache_put "$K8S_BIN/$cmd.tmp.$$" "$K8S_BIN/$cmd"
    done
  )
  rm -rf "$work"
}

build_helm() {
  cache_ok "$HELM_BIN/helm" && return 0
  log "building helm v$HELM_VERSION from the Go module proxy (about 3 minutes)"
  local gobin
  gobin="$(mktemp -d)"
  # A retried install compiles nothing twice: Go's build cache keeps what the failed attempt built.
  retry "helm v$HELM_VERSION from the Go module proxy" quietly "$JTO_CACHE/logs/helm.log" env GOBIN="$gobin" go install "helm.sh/helm/v3/cmd/helm@v$HELM_VERSION"
  mkdir -p "$HELM_BIN"
  cache_put "$gobin/helm" "$HELM_BIN/helm"
  rm -rf "$gobin"
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
# The tree records the checksum of the archive it was unpacked from: a tree from another archive, or
# one whose unpacking was cut short, has none that matches and is unpacked again.
unpack_jre21() {
  local tar="$JTO_CACHE/images/rootfs/jre21.tar" dir="$JTO_CACHE/jre21-rootfs" work
  cache_ok "$tar" || die "no JRE 21 root file system at $tar (deploy/local/images.sh jre builds it)"
  [ "$(cat "$dir/.unpacked-from" 2>/dev/null)" = "$(cat "$tar.sha256")" ] && return 0
  log "unpacking the JRE 21 root file system for the flag-policy tests"
  work="$(mktemp -d "$dir.tmp.XXXXXX")"
  tar --numeric-owner -C "$work" -xf "$tar"
  cp "$tar.sha256" "$work/.unpacked-from"
  rm -rf --one-file-system "$dir"
  mv "$work" "$dir"
}

# The Maven distribution the wrapper runs, fetched here so that a failed download is tried again.
fetch_maven() { (cd "$REPO_ROOT" && retry "the Maven distribution (./mvnw)" ./mvnw -q -v >/dev/null); }

mkdir -p "$JTO_CACHE"
# One apt call: etcd for the control plane; containerd, runc, the CNI plugins and iptables for the
# node; umoci, debootstrap and jq for the images (deploy/local/images.sh).
apt_install etcd-server openssl curl bc prometheus containerd runc containernetworking-plugins iptables umoci debootstrap jq
command -v go >/dev/null || apt_install golang-go
# Debian's packages may start system services; the scripts start their own instances.
for service in etcd prometheus containerd; do
  if command -v systemctl >/dev/null && systemctl is-active --quiet "$service" 2>/dev/null; then systemctl stop "$service" || true; fi
done
with_lock "kubernetes-v$K8S_VERSION" build_kubernetes &
k8s_pid=$!
# The JRE base images' debootstraps wait on the network and dpkg, not the CPU: beside the Go builds
# they cost a cold run almost nothing.
"$REPO_ROOT/deploy/local/images.sh" jre &
jre_pid=$!
with_lock "helm-v$HELM_VERSION" build_helm
fetch_maven
wait "$k8s_pid" || die "building Kubernetes v$K8S_VERSION failed (above)"
wait "$jre_pid" || die "building the JRE base images failed (above)"
layout_for_kube_api_test
with_lock jre21-rootfs unpack_jre21
log "ready: $K8S_BIN, $HELM_BIN/helm, $KUBE_API_TEST_DIR"
