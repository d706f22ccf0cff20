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
sysctl -a 2>/dev/null | grep -vE '^(fs\.(dentry-state|inode-nr|inode-state|file-nr|aio-nr)|kernel\.(ns_last_pid|random\.)|kernel\.pty\.nr|net\.netfilter\.nf_conntrack_count)' | sort
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
section "listening sockets of the node's components, or on its addresses"
ss -Hltnup 2>/dev/null | grep -E "users:\(\(\"(etcd|kube-[a-z-]+|kubelet|containerd[a-z0-9-]*)\"|${NODE_IP//./\\.}|${POD_GATEWAY%.*}\." | awk '{print $1, $5, $7}' | sort
section "processes of the node's components"
ps -eo comm= | grep -xE 'etcd|kube-[a-z-]+|kubelet|containerd|containerd-shim.*|runc|pause' | sort | uniq -c
section "host directories"
for dir in $NODE_HOST_DIRS; do [ -e "$dir" ] && echo "$dir"; done
exit 0
