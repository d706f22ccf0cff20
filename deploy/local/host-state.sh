#!/usr/bin/env bash
# Prints what the local node may change on this host, in a stable order, so that two snapshots
# (before up.sh, after down.sh) can be compared: kernel settings, mounts, iptables rules of every
# table, network interfaces, addresses and routes, network namespaces, cgroups, the listening
# sockets and processes of the node's components, and the host directories they create.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
section() { printf '\n## %s\n' "$1"; }

section sysctl
# Counters and random values change on their own.
sysctl -a 2>/dev/null | grep -vE '^(fs\.(dentry-state|inode-nr|inode-state|file-nr|aio-nr|quota\.)|kernel\.(ns_last_pid|random\.)|kernel\.pty\.nr|net\.netfilter\.nf_conntrack_count)' | sort
section mounts
awk '{print $5, $9}' /proc/self/mountinfo | sort
for family in iptables ip6tables; do
  for table in filter nat mangle raw; do
    section "$family -t $table"
    "$family" -t "$table" -S 2>&1
  done
done
section links
ip -o link show | awk '{print $2, $3}' | sort
section addresses
ip -o addr show | awk '{print $2, $3, $4}' | sort
section routes
ip route show table all | sort
section netns
ip netns list | sort
section cgroups
# Depth 2: the node's cgroup parent in each hierarchy, everything it holds lies below it.
find /sys/fs/cgroup -mindepth 1 -maxdepth 2 -type d | sort
# The node's processes: up.sh starts them in $JTO_STATE, containerd's shims run in its state
# directory (and pods in the node's cgroups, above). Other clusters on this machine are not ours.
node_pids() {
  local proc cwd
  for proc in /proc/[0-9]*; do
    cwd="$(readlink "$proc/cwd" 2>/dev/null)" || continue
    case "$cwd" in "$JTO_STATE"* | "$CONTAINERD_STATE"*) echo "${proc#/proc/}" ;; esac
  done
}
pids="$(node_pids | paste -sd'|')"
section "processes of the node"
[ -z "$pids" ] || ps -o comm= -p "${pids//|/,}" | sort
section "listening sockets of the node's processes, or on its addresses"
ss -Hltnup 2>/dev/null | grep -E "${pids:+pid=($pids),|}${NODE_IP//./\\.}:|${POD_GATEWAY%.*}\\." | awk '{print $1, $5}' | sort
section "host directories"
for dir in $NODE_HOST_DIRS; do [ -e "$dir" ] && echo "$dir"; done
exit 0
