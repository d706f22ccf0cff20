#!/usr/bin/env bash
# Regenerates core/src/main/resources/jvm-flags/jdk{17,21,25}.txt from the JDKs themselves (see
# KnownFlagsGenerator). JDK 17 and 25 are installed JDKs; JDK 21 is Debian trixie's, run as root in a
# chroot of a root file system under the local cache: when none is there yet, the JRE 21 root file
# system archive that deploy/local/images.sh builds is unpacked for it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/local/env.sh"
cd "$REPO_ROOT"
JAVA21=usr/lib/jvm/java-21-openjdk-amd64/bin/java
if ! find "$JTO_CACHE" -maxdepth 6 -path "*/$JAVA21" -print -quit 2>/dev/null | grep -q .; then
  tarball="$JTO_CACHE/images/rootfs/jre21.tar"
  [ -f "$tarball" ] || { echo "no JDK 21 root file system and no $tarball: run deploy/local/images.sh jre first" >&2; exit 1; }
  mkdir -p "$JTO_CACHE/jre21-rootfs"
  # Only what the JVM loads: the loader, the C libraries, the JDK and its configuration (lib and lib64 are usr-merged links).
  tar -C "$JTO_CACHE/jre21-rootfs" -xf "$tarball" ./lib ./lib64 ./usr/lib64 ./usr/lib/x86_64-linux-gnu ./usr/lib/jvm ./etc/java-21-openjdk
fi
tools_build
tools_run dev.jvmtuning.operator.flaglists.KnownFlagsGenerator
