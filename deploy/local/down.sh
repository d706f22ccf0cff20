#!/usr/bin/env bash
# Stops the local cluster started by up.sh and undoes every host change it recorded in
# $JTO_STATE/host: pods and their network namespaces, mounts, cgroups, the bridge, the iptables
# rule and the chains the kubelet adds, kernel settings, and directories the node created.
# Leaves no process behind. The image cache ($JTO_CACHE) stays.
# Best effort by design: one step failing (a process already gone) must not skip the others, so no
# `set -e`. Ends by checking what up.sh recorded and saying what, if anything, it could not restore
# (then it exits 1).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
[ -d "$JTO_STATE" ] || exit 0
host="$JTO_STATE/host"

stop() { # NAME PID: TERM, then KILL after 10 s; a second TERM ends an API server stuck in graceful shutdown
  local name="$1" pid="$2"
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    [ "$i" -eq 50 ] && kill "$pid" 2>/dev/null
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  echo "stopped $name" >&2
}
pid_of() { awk -v n="$1" '$1 == n {print $2}' "$JTO_STATE/pids" 2>/dev/null; }

# The kubelet first, so that nothing restarts the containers killed next.
[ -n "$(pid_of kubelet)" ] && stop kubelet "$(pid_of kubelet)"
# Every pod process lives in a cgroup below the node's cgroup parent.
for _ in 1 2 3; do
  pids="$(find /sys/fs/cgroup/*/"$NODE_CGROUP" -name cgroup.procs -exec cat {} + 2>/dev/null | sort -u)"
  [ -z "$pids" ] && break
  kill -9 $pids 2>/dev/null
  sleep 0.5
done
[ -n "$(pid_of containerd)" ] && stop containerd "$(pid_of containerd)"
# The runc shims outlive containerd; they are the processes started with this containerd's socket.
for pid in $(pgrep -f -- "-address $CONTAINERD_SOCK( |$)"); do stop containerd-shim "$pid"; done
# The control plane, the store last, so nothing logs errors against a vanished etcd.
tac "$JTO_STATE/pids" 2>/dev/null | while read -r name pid; do
  case "$name" in kubelet | containerd) ;; *) stop "$name" "$pid" ;; esac
done

# Mounts: the kubelet's root on itself, secret and token volumes, container root file systems and
# sandbox shm, network namespaces. Deepest first, as long as any is left.
mount_points() {
  awk '{print $5}' /proc/self/mountinfo | grep -E "^($JTO_STATE|$CONTAINERD_STATE|$CONTAINERD_ROOT|/run/netns|/var/lib/kubelet|/run/containerd)(/|$)" | sort -r
}
for _ in 1 2 3 4 5; do
  points="$(mount_points)"
  [ -z "$points" ] && break
  for point in $points; do umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null; done
done
for ns in $(ls /run/netns 2>/dev/null); do
  grep -qx "$ns" "$host/netns" 2>/dev/null || rm -f "/run/netns/$ns"
done

# Cgroups, children before parents.
for cgroup in $(cat "$host/cgroups" 2>/dev/null); do
  [ -d "$cgroup" ] && find "$cgroup" -depth -type d -exec rmdir {} + 2>/dev/null
done

# Network: the veths of pods that are gone, the bridge, the FORWARD rule, and the chains the kubelet
# adds (KUBE-*) and the CNI plugins would (CNI-*). Each table is rewritten as it is now, minus those.
for link in $(cat "$host/links" 2>/dev/null); do
  for port in $(ip -o link show master "$link" 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1); do ip link del "$port" 2>/dev/null; done
  ip link del "$link" 2>/dev/null
done
for family in iptables ip6tables; do
  for table in filter nat mangle raw; do
    rules="$("$family-save" -t "$table" 2>/dev/null)" || continue
    grep -qE -- "^:(KUBE|CNI)-|$IPTABLES_COMMENT" <<<"$rules" || continue
    sed -E "/^:(KUBE|CNI)-/d; /^-A (KUBE|CNI)-/d; /-j (KUBE|CNI)-/d; /$IPTABLES_COMMENT/d" <<<"$rules" | "$family-restore"
  done
done

# Kernel settings, back to what up.sh found.
while IFS='=' read -r key value; do
  [ "$(sysctl -n "$key" 2>/dev/null)" = "$value" ] || sysctl -q -w "$key=$value"
done <"$host/sysctls" 2>/dev/null

for dir in $(cat "$host/created-dirs" 2>/dev/null); do rm -rf --one-file-system "$dir"; done

# What is left of the cluster, checked against what up.sh recorded before it changed anything.
left=()
while read -r name pid; do kill -0 "$pid" 2>/dev/null && left+=("process $name ($pid)"); done < <(cat "$JTO_STATE/pids" 2>/dev/null)
for link in $(cat "$host/links" 2>/dev/null); do ip link show "$link" >/dev/null 2>&1 && left+=("interface $link"); done
for cgroup in $(cat "$host/cgroups" 2>/dev/null); do [ -d "$cgroup" ] && left+=("cgroup $cgroup"); done
for dir in $(cat "$host/created-dirs" 2>/dev/null); do [ -e "$dir" ] && left+=("directory $dir"); done
while IFS='=' read -r key value; do
  [ "$(sysctl -n "$key" 2>/dev/null)" = "$value" ] || left+=("$key is $(sysctl -n "$key"), was $value")
done <"$host/sysctls" 2>/dev/null
for point in $(mount_points); do left+=("mount $point"); done
iptables -S 2>/dev/null | grep -q -- "$IPTABLES_COMMENT" && left+=("the iptables rule '$IPTABLES_COMMENT'")
undone="stopped $(cat "$JTO_STATE/pids" 2>/dev/null | wc -l) processes and their pods; removed interfaces $(paste -sd' ' "$host/links" 2>/dev/null), \
$(cat "$host/cgroups" 2>/dev/null | wc -l) cgroups, $(cat "$host/created-dirs" 2>/dev/null | wc -l) directories and the iptables rule; \
restored $(cat "$host/sysctls" 2>/dev/null | wc -l) kernel settings"

[ "$(cat "$NODE_OWNER" 2>/dev/null)" = "$JTO_STATE" ] && rm -f "$NODE_OWNER"
rm -rf --one-file-system "$CONTAINERD_STATE" "$JTO_STATE"
if [ ${#left[@]} -eq 0 ]; then
  echo "down.sh: took down the local cluster of $JTO_STATE ($undone): the host is as up.sh found it" >&2
  exit 0
fi
echo "down.sh: stopped the local cluster, but could not restore: ${left[*]}" >&2
exit 1
