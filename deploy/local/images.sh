#!/usr/bin/env bash
# Builds the local node's images without a container daemon or a registry, as OCI archives under
# $JTO_CACHE/images, and imports them into the node's containerd (up.sh must be running for that):
#   localhost/pause             the pod sandbox: a static Go program (deploy/images/pause)
#   localhost/jre:17, :21, :25  Debian root file systems with a headless JRE (bookworm, trixie, trixie)
#   localhost/jvm-tuning-operator  operator/target/quarkus-app on the JRE 17 base, UID 10001
#   localhost/jvm-tuning-agent  the agent jar and a static `cp` (deploy/images/cp) for its init container
#   localhost/jvm-tuning-workload  the lab's Spring Boot app on the JRE 17 base, UID 10001 (tag IMAGE_VERSION),
#                               and on the JRE 21 and 25 bases (tags IMAGE_VERSION-jre21, -jre25)
#   localhost/autoscalers       metrics-server and the VPA's recommender, updater and admission controller,
#                               static builds of their released modules (only when asked for: the checks beside
#                               other controllers run them; the demo does not)
# An image is rebuilt only when a digest of its inputs changes or its archive fails its checksum, and
# imported only when containerd holds a different manifest under its name. Runs that share the cache
# build each artefact one at a time (env.sh's with_lock) and never see one half written; a step that
# fails stops the script, naming the step, and leaves neither that image nor its digest behind.
# Usage: images.sh [pause|jre|jre17|jre21|jre25|operator|agent|workload|autoscalers]...
#        (default: all of them but autoscalers)
set -eEuo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
# The first step that fails is named; the functions and locks it ran in fail after it, unnamed.
first_failure="$(mktemp)"
trap 'rm -f "$first_failure"' EXIT
trap 'step_failed $? "$BASH_COMMAND" "${FUNCNAME[0]:-images.sh}"' ERR
step_failed() {
  [ -s "$first_failure" ] && return
  echo "$2" >"$first_failure"
  log "step failed (exit $1): $2, in $3"
}
IMAGES="$JTO_CACHE/images"
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SELF_DIGEST="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-64)"
mkdir -p "$IMAGES/rootfs" "$IMAGES/bin"
# What older versions of this script cached: gzipped root file systems and unpacked layouts.
rm -rf "$IMAGES"/rootfs/*.tar.gz "$IMAGES"/*.oci


java_home() { echo "/usr/lib/jvm/java-$1-openjdk-amd64"; }

# The JRE base images: each Java feature release and the Debian suite that packages its headless JRE.
declare -A JRE_SUITES=([17]=bookworm [21]=trixie [25]=trixie)
JRE_VERSIONS=(17 21 25)

# A Debian root file system with the JRE, cached as a tar archive (uncompressed: written and read back
# in seconds, where gzip cost half a minute of CPU each way).
jre_rootfs() {
  local java="$1" suite="${JRE_SUITES[$1]:-}" tar="$IMAGES/rootfs/jre$1.tar" dir
  [ -n "$suite" ] || { echo "no Debian suite for Java $java" >&2; return 1; }
  cache_ok "$tar" && return 0
  rm -f "$tar."[0-9]*
  log "debootstrap $suite with openjdk-$java-jre-headless (about 3 minutes; log $IMAGES/rootfs/jre$java.log)"
  dir="$(mktemp -d)"
  retry "debootstrap $suite (see $IMAGES/rootfs/jre$java.log)" debootstrap_into "$suite" "$dir" "$java"
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/var/log/*
  tar --numeric-owner -C "$dir" -cf "$tar.$$" .
  rm -rf --one-file-system "$dir"
  tar -tf "$tar.$$" >/dev/null
  cache_put "$tar.$$" "$tar"
}

# debootstrap_into SUITE DIR JAVA: one attempt, into an emptied DIR.
debootstrap_into() {
  # debootstrap mounts proc and sys inside the target; a failed attempt can leave them behind.
  umount -R "$2/proc" "$2/sys" 2>/dev/null || true
  rm -rf --one-file-system "${2:?}"/* && debootstrap --variant=minbase --include="openjdk-$3-jre-headless,ca-certificates-java" \
    "$1" "$2" "$DEBIAN_MIRROR" >"$IMAGES/rootfs/jre$3.log" 2>&1
}

# The static Go programs of deploy/images: the pause sandbox and the agent image's cp.
go_binary() {
  local name="$1"
  (cd "$REPO_ROOT/deploy/images" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$IMAGES/bin/$name.$$" "./$name")
  mv -f "$IMAGES/bin/$name.$$" "$IMAGES/bin/$name"
}

# A command of a released Go module, built static as the module's own main module: `go install module@version`
# refuses a go.mod with exclude directives, as the VPA's has. Cached under the module's version.
module_binary() { # MODULE@VERSION PACKAGE-DIR
  local module="$1" package="$2" binary work
  binary="$(module_binary_path "$1" "$2")"
  cache_ok "$binary" && return 0
  log "building ${package##*/} of $module from the Go module proxy"
  retry "Go module $module" go mod download "$module"
  work="$(mktemp -d)"
  cp -r "$(go mod download -json "$module" | jq -r .Dir)/." "$work" && chmod -R u+w "$work"
  mkdir -p "$(dirname "$binary")"
  (cd "$work" && retry "building ${package##*/} of $module" quietly "$JTO_CACHE/logs/${package##*/}.log" \
    env CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$binary.$$" "./$package")
  rm -rf "$work"
  cache_put "$binary.$$" "$binary"
}
module_binary_path() { echo "$IMAGES/bin/${1##*/}/${2##*/}"; }

# inputs_digest FILE...: one digest of this script and the contents of the given files and trees.
inputs_digest() {
  { echo "$SELF_DIGEST"; find "$@" -type f -print0 | sort -z | xargs -0 sha256sum | cut -c1-64; } | sha256sum | cut -c1-64
}

# build NAME TAG DIGEST FUNCTION [ARG...]: unless the archive $IMAGES/NAME.tar is whole and was built from
# the same inputs, runs FUNCTION LAYOUT TAG ARG... into a fresh OCI layout and archives it; the digest of
# the inputs is recorded last, once the archive is in place.
build() {
  local name="$1" tag="$2" digest="$3" fill="$4" archive="$IMAGES/$1.tar" work layout
  shift 4
  if [ "$(cat "$IMAGES/$name.inputs" 2>/dev/null)" = "$digest" ] && cache_ok "$archive"; then return 0; fi
  log "building $name ($tag)"
  # Under the image's lock, any temporary layout or archive of this image is a dead run's.
  rm -rf "$IMAGES/$name.inputs" "$archive" "$archive.sha256" "$IMAGES/$name.build."* "$archive."[0-9]*
  work="$(mktemp -d "$IMAGES/$name.build.XXXXXX")"
  layout="$work/oci"
  "$fill" "$layout" "$tag" "$@"
  umoci gc --layout "$layout"
  tar -C "$layout" -cf "$archive.$$" .
  rm -rf "$work"
  tar -tf "$archive.$$" >/dev/null
  cache_put "$archive.$$" "$archive"
  echo "$digest" >"$IMAGES/$name.inputs.$$" && mv -f "$IMAGES/$name.inputs.$$" "$IMAGES/$name.inputs"
}

empty_image() { # LAYOUT TAG
  umoci init --layout "$1"
  umoci new --image "$1:$2"
}

# An image on a JRE base: the base's layout unpacked from its archive, retagged, so its layers are
# shared on the node.
on_jre() { # LAYOUT TAG JAVA
  mkdir "$1" && tar -C "$1" -xf "$IMAGES/jre$3.tar"
  umoci tag --image "$1:$3" "$2"
  umoci rm --image "$1:$3"
}

fill_pause() {
  empty_image "$1" "$2"
  umoci insert --image "$1:$2" "$IMAGES/bin/pause" /pause
  umoci config --image "$1:$2" --config.entrypoint /pause --config.user 65535:65535
}

fill_jre() { # the tag is the Java feature release
  local bundle="$1.bundle"
  empty_image "$1" "$2"
  umoci unpack --image "$1:$2" "$bundle"
  tar --numeric-owner -C "$bundle/rootfs" -xf "$IMAGES/rootfs/jre$2.tar"
  umoci repack --image "$1:$2" "$bundle"
  rm -rf "$bundle"
  umoci config --image "$1:$2" --config.env "PATH=$(java_home "$2")/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --config.env "JAVA_HOME=$(java_home "$2")" --config.workingdir /
}

fill_operator() {
  on_jre "$1" "$2" 17
  umoci insert --image "$1:$2" "$OPERATOR_APP" /deployments
  # JAVA_OPTS_APPEND carries the chart's javaOptions; a shell expands it, so the image has /bin/sh run java.
  umoci config --image "$1:$2" --config.user 10001:10001 --config.workingdir /deployments --config.exposedports 8080/tcp \
    --config.entrypoint /bin/sh --config.entrypoint -c \
    --config.entrypoint "exec $(java_home 17)/bin/java \$JAVA_OPTS_APPEND -jar /deployments/quarkus-run.jar"
}

fill_agent() {
  empty_image "$1" "$2"
  umoci insert --image "$1:$2" "$IMAGES/bin/cp" /bin/cp
  umoci insert --image "$1:$2" "$REPO_ROOT/agent/target/jvm-tuning-agent.jar" /jvm-tuning-agent.jar
  umoci config --image "$1:$2" --config.env PATH=/bin --config.user 65532:65532
}

fill_workload() { # LAYOUT TAG JAVA
  on_jre "$1" "$2" "$3"
  umoci insert --image "$1:$2" "$WORKLOAD_JAR" /app/app.jar
  # The lab binds loopback when it runs beside the cluster; in a pod it serves the pod's address.
  umoci config --image "$1:$2" --config.user 10001:10001 --config.env SERVER_ADDRESS=0.0.0.0 --config.exposedports 8080/tcp \
    --config.entrypoint "$(java_home "$3")/bin/java" --config.entrypoint -jar --config.entrypoint /app/app.jar
}

WORKLOAD_JAR="$REPO_ROOT/lab/workload-app/target/lab-workload.jar"

AUTOSCALER_PROGRAMS=("$METRICS_SERVER_MODULE cmd/metrics-server" "$VPA_MODULE pkg/recommender" "$VPA_MODULE pkg/updater"
  "$VPA_MODULE pkg/admission-controller")
# One image, each program at /NAME; the manifests name the one a container runs.
fill_autoscalers() {
  local program
  empty_image "$1" "$2"
  for program in "${AUTOSCALER_PROGRAMS[@]}"; do
    # shellcheck disable=SC2086 # module and package, split on purpose
    umoci insert --image "$1:$2" "$(module_binary_path $program)" "/${program##*/}"
  done
  umoci config --image "$1:$2" --config.user 65534:65534
}

# Builds a Maven module when its sources are newer than its artifact; a failed download is tried again.
maven_package() { # POM ARTIFACT SOURCES...
  local pom="$1" artifact="$2"; shift 2
  if stale "$artifact" "$@"; then
    log "mvn package -f ${pom#"$REPO_ROOT"/}"
    retry "mvn package -f ${pom#"$REPO_ROOT"/}" maven -f "$pom" package -DskipTests
  fi
}

# Each image_* builds under its image's lock. Inputs from the cache are read under their own lock,
# and the sums the digests take are the recorded checksums of verified entries.
image_pause() {
  with_lock image-pause build_pause
}
build_pause() {
  with_lock go-pause go_binary pause
  build pause "$IMAGE_VERSION" "$(inputs_digest "$IMAGES/bin/pause")" fill_pause
}

image_jre() { # JAVA
  with_lock "rootfs-jre$1" jre_rootfs "$1"
  with_lock "image-jre$1" build "jre$1" "$1" "$(cat "$IMAGES/rootfs/jre$1.tar.sha256")" fill_jre
}

image_operator() {
  image_jre 17
  maven_package "$REPO_ROOT/pom.xml" "$OPERATOR_APP/quarkus-run.jar" "${OPERATOR_SOURCES[@]}"
  with_lock image-operator build jvm-tuning-operator "$IMAGE_VERSION" "$(inputs_digest "$IMAGES/jre17.tar.sha256" "$OPERATOR_APP")" fill_operator
}

image_agent() {
  with_lock go-cp go_binary cp
  maven_package "$REPO_ROOT/agent/pom.xml" "$REPO_ROOT/agent/target/jvm-tuning-agent.jar" "$REPO_ROOT/agent/src/main" "$REPO_ROOT/agent/pom.xml"
  with_lock image-agent build jvm-tuning-agent "$IMAGE_VERSION" "$(inputs_digest "$IMAGES/bin/cp" "$REPO_ROOT/agent/target/jvm-tuning-agent.jar")" fill_agent
}

image_autoscalers() {
  local program binaries=()
  for program in "${AUTOSCALER_PROGRAMS[@]}"; do
    # shellcheck disable=SC2086
    with_lock "go-${program##*/}" module_binary $program
    # shellcheck disable=SC2086
    binaries+=("$(module_binary_path $program)")
  done
  with_lock image-autoscalers build autoscalers "$IMAGE_VERSION" "$(inputs_digest "${binaries[@]}")" fill_autoscalers
}

image_workload() {
  local java
  maven_package "$REPO_ROOT/lab/workload-app/pom.xml" "$WORKLOAD_JAR" "$REPO_ROOT/lab/workload-app/src/main" "$REPO_ROOT/lab/workload-app/pom.xml"
  for java in "${JRE_VERSIONS[@]}"; do
    image_jre "$java"
    with_lock "image-$(workload_archive "$java")" build "$(workload_archive "$java")" "$(workload_tag "$java")" \
      "$(inputs_digest "$IMAGES/jre$java.tar.sha256" "$WORKLOAD_JAR")" fill_workload "$java"
  done
}
# The workload on JRE 17 keeps the plain names; the others carry their Java release.
workload_archive() { if [ "$1" = 17 ]; then echo jvm-tuning-workload; else echo "jvm-tuning-workload-jre$1"; fi; }

# Imports an archive unless containerd already holds its manifest under the same name.
import() { # NAME (archive $IMAGES/NAME.tar) REF-BASE
  local name="$1" base="$2" index manifest tag current
  index="$(tar -xOf "$IMAGES/$name.tar" ./index.json)"
  manifest="$(jq -r '.manifests[0].digest' <<<"$index")"
  tag="$(jq -r '.manifests[0].annotations["org.opencontainers.image.ref.name"]' <<<"$index")"
  current="$(ctr -a "$CONTAINERD_SOCK" -n k8s.io images ls "name==$base:$tag" | awk 'NR == 2 {print $3}')"
  [ "$current" = "$manifest" ] && return 0
  log "importing $base:$tag"
  ctr -a "$CONTAINERD_SOCK" -n k8s.io images import --base-name "$base" "$IMAGES/$name.tar" >/dev/null
}

# Image name -> archive name(s) and the name containerd knows it by.
refs() {
  case "$1" in
    pause) echo "pause localhost/pause" ;;
    jre) printf 'jre%s localhost/jre\n' "${JRE_VERSIONS[@]}" ;;
    jre[0-9]*) echo "$1 localhost/jre" ;;
    operator) echo "jvm-tuning-operator localhost/jvm-tuning-operator" ;;
    agent) echo "jvm-tuning-agent localhost/jvm-tuning-agent" ;;
    workload) for java in "${JRE_VERSIONS[@]}"; do echo "$(workload_archive "$java") localhost/jvm-tuning-workload"; done ;;
    autoscalers) echo "autoscalers localhost/autoscalers" ;;
  esac
}

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(pause jre operator agent workload)
for name in "${names[@]}"; do
  case "$name" in
    pause | operator | agent | workload | autoscalers) "image_$name" ;;
    jre)
      # The debootstraps wait on the network and dpkg more than on the CPU: run them side by side.
      declare -A jre_pids=()
      for java in "${JRE_VERSIONS[@]}"; do image_jre "$java" & jre_pids[$java]=$!; done
      for java in "${JRE_VERSIONS[@]}"; do wait "${jre_pids[$java]}" || die "the JRE $java image failed (above)"; done ;;
    jre[0-9]*) image_jre "${name#jre}" ;;
    *) echo "usage: $0 [pause|jre|jre17|jre21|jre25|operator|agent|workload|autoscalers]..." >&2; exit 2 ;;
  esac
done
if [ -S "$CONTAINERD_SOCK" ]; then
  for name in "${names[@]}"; do
    while read -r archive base; do import "$archive" "$base"; done < <(refs "$name")
  done
else
  log "built; containerd is not running ($CONTAINERD_SOCK), so nothing was imported: run this again once deploy/local/up.sh is up"
fi
