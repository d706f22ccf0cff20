#!/usr/bin/env bash
# Brings up a local single-node cluster that runs real pods:
#   control plane: etcd, kube-apiserver (RBAC), kube-controller-manager, kube-scheduler;
#   node: containerd + runc, the kubelet, a CNI bridge with pod addresses on this machine only.
# Writes a kubeconfig to $JTO_STATE/kubeconfig. Needs root: it creates a bridge, cgroups and
# network namespaces. Every host change is recorded first in $JTO_STATE/host so that down.sh
# undoes exactly it.
#
# Addresses: the node is $NODE_IP on bridge $NODE_LINK, pods get $POD_CIDR on bridge $POD_BRIDGE.
# Both are documentation ranges: nothing off this machine routes to them, pods get no default
# route, IP masquerading is off, and a FORWARD rule drops anything from a pod that would leave by
# another interface. No kube-proxy runs: a pod that talks to the API server (the operator) is
# given its address in KUBERNETES_SERVICE_HOST/PORT; see demo.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
[ "$(id -u)" -eq 0 ] || { echo "up.sh runs a kubelet and creates network interfaces and cgroups: run it as root" >&2; exit 1; }

running="$(running_cluster)"
if [ "$running" = "$JTO_STATE" ] && kubectl --kubeconfig "$KUBECONFIG_FILE" get --raw /readyz >/dev/null 2>&1; then
  echo "local cluster already running: export KUBECONFIG=$KUBECONFIG_FILE" >&2
  exit 0
fi
[ -z "$running" ] || [ "$running" = "$JTO_STATE" ] || stop_cluster "$running" "a cluster of another checkout holds the node's addresses and ports"
"$REPO_ROOT/deploy/local/down.sh" >/dev/null 2>&1 || true
for link in "$NODE_LINK" "$POD_BRIDGE"; do
  if ip link show "$link" >/dev/null 2>&1; then
    echo "interface $link exists but no state of a local cluster does (a run killed before down.sh?): remove it with 'ip link del $link'" >&2
    exit 1
  fi
done
mkdir -p "$JTO_STATE/pki" "$JTO_STATE/logs" "$JTO_STATE/host" "$JTO_STATE/cni/conf" "$JTO_STATE/cni/ipam"
cd "$JTO_STATE"

# --- what the host looks like before, for down.sh ---------------------------------------------
# The kubelet sets these kernel settings at start, and the CNI bridge turns on forwarding.
for key in $NODE_SYSCTLS; do echo "$key=$(sysctl -n "$key")"; done >host/sysctls
# Directories the node's components create outside $JTO_STATE when they are missing.
for dir in $NODE_HOST_DIRS; do [ -e "$dir" ] || echo "$dir"; done >host/created-dirs
ls /var/run/netns 2>/dev/null >host/netns || true
: >pids
mkdir -p "$JTO_CACHE" && echo "$JTO_STATE" >"$NODE_OWNER"

# --- certificates -------------------------------------------------------------------------------
# One CA signs the API server's serving certificate (pods verify it through kube-root-ca.crt) and
# the client certificate the API server shows the kubelet for exec and logs.
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=jto-local-ca" -keyout pki/ca.key -out pki/ca.crt 2>/dev/null
sign() { # NAME SUBJECT [SANS]
  openssl req -newkey rsa:2048 -nodes -subj "$2" -keyout "pki/$1.key" -out "pki/$1.csr" 2>/dev/null
  printf '%s\n' "${3:+subjectAltName=$3}" >"pki/$1.ext"
  openssl x509 -req -in "pki/$1.csr" -CA pki/ca.crt -CAkey pki/ca.key -CAcreateserial -days 30 \
    -extfile "pki/$1.ext" -out "pki/$1.crt" 2>/dev/null
}
sign apiserver "/CN=kube-apiserver" \
  "IP:127.0.0.1,IP:$NODE_IP,IP:${SERVICE_CIDR%.*/*}.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
sign kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client"
# The aggregation layer (metrics.k8s.io, served by metrics-server for the autoscalers): the API server
# proxies to an extension server with a client certificate of its own CA, as kubeadm sets it up.
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=jto-local-front-proxy-ca" \
  -keyout pki/front-proxy-ca.key -out pki/front-proxy-ca.crt 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=front-proxy-client" -keyout pki/front-proxy-client.key \
  -out pki/front-proxy-client.csr 2>/dev/null
openssl x509 -req -in pki/front-proxy-client.csr -CA pki/front-proxy-ca.crt -CAkey pki/front-proxy-ca.key \
  -CAcreateserial -days 30 -out pki/front-proxy-client.crt 2>/dev/null
openssl genrsa -out pki/sa.key 2048 2>/dev/null
openssl rsa -in pki/sa.key -pubout -out pki/sa.pub 2>/dev/null
token="$(openssl rand -hex 24)"
echo "$token,admin,admin,system:masters" >pki/tokens.csv

cat >"$KUBECONFIG_FILE" <<KCFG
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://$NODE_IP:$APISERVER_PORT
    certificate-authority: $JTO_STATE/pki/ca.crt
users:
- name: admin
  user:
    token: $token
contexts:
- name: local
  context: {cluster: local, user: admin, namespace: default}
current-context: local
KCFG

start() { # name, then the command; it does not inherit the node lock (descriptor 8, env.sh's hold_node)
  local name="$1"; shift
  nohup "$@" >"logs/$name.log" 2>&1 8>&- &
  echo "$name $!" >>pids
}

# --- the node's network: a bridge with the node's address, one for the pods -----------------------
ip link add "$NODE_LINK" type bridge
echo "$NODE_LINK" >host/links
ip addr add "$NODE_IP/32" dev "$NODE_LINK"
ip link set "$NODE_LINK" up
# The CNI plugin creates the pods' bridge; down.sh deletes it.
echo "$POD_BRIDGE" >>host/links
iptables -I FORWARD -s "$POD_CIDR" ! -o "$POD_BRIDGE" -m comment --comment "$IPTABLES_COMMENT" -j DROP
cat >cni/conf/10-jto.conflist <<CNI
{
  "cniVersion": "1.0.0",
  "name": "jto",
  "plugins": [{
    "type": "bridge",
    "bridge": "$POD_BRIDGE",
    "isGateway": true,
    "ipMasq": false,
    "hairpinMode": true,
    "ipam": {
      "type": "host-local",
      "dataDir": "$JTO_STATE/cni/ipam",
      "ranges": [[{"subnet": "$POD_CIDR", "gateway": "$POD_GATEWAY"}]],
      "routes": [{"dst": "$NODE_IP/32"}]
    }
  }, {"type": "loopback"}]
}
CNI

# --- control plane ------------------------------------------------------------------------------
start etcd etcd --name local --data-dir "$JTO_STATE/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" --initial-advertise-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
  --initial-cluster "local=http://127.0.0.1:$((ETCD_PORT + 1))"
# Listens on the node address only: pods reach it there, and nothing listens on the machine's own network.
# With no kube-proxy, it reaches aggregated APIs and webhooks at their pods' addresses, not their Services'.
start kube-apiserver kube-apiserver --bind-address "$NODE_IP" --advertise-address "$NODE_IP" \
  --secure-port "$APISERVER_PORT" --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
  --tls-cert-file pki/apiserver.crt --tls-private-key-file pki/apiserver.key --client-ca-file pki/ca.crt \
  --token-auth-file pki/tokens.csv --authorization-mode RBAC \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file pki/sa.pub \
  --service-account-signing-key-file pki/sa.key --service-cluster-ip-range "$SERVICE_CIDR" \
  --kubelet-client-certificate pki/kubelet-client.crt --kubelet-client-key pki/kubelet-client.key \
  --kubelet-preferred-address-types InternalIP \
  --requestheader-client-ca-file pki/front-proxy-ca.crt --requestheader-allowed-names front-proxy-client \
  --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
  --requestheader-extra-headers-prefix X-Remote-Extra- \
  --proxy-client-cert-file pki/front-proxy-client.crt --proxy-client-key-file pki/front-proxy-client.key \
  --enable-aggregator-routing
wait_for 60 "kube-apiserver (see $JTO_STATE/logs/kube-apiserver.log)" kubectl --kubeconfig "$KUBECONFIG_FILE" get --raw /readyz

# The controller manager publishes the CA to every namespace (kube-root-ca.crt) and creates the
# default ServiceAccounts; without it the node also keeps its not-ready taint. Its client may send 200
# requests a second (the default 20 left thousands of a benchmark's Deployments unobserved for an hour).
start kube-controller-manager kube-controller-manager --kubeconfig "$KUBECONFIG_FILE" \
  --service-account-private-key-file pki/sa.key --root-ca-file pki/ca.crt --use-service-account-credentials=false \
  --leader-elect=false --secure-port 0 --controllers '*,-serviceaccount-token' --kube-api-qps 200 --kube-api-burst 400
start kube-scheduler kube-scheduler --kubeconfig "$KUBECONFIG_FILE" --leader-elect=false \
  --bind-address 127.0.0.1 --secure-port "$SCHEDULER_PORT"

# --- containerd -------------------------------------------------------------------------------
# Debian's default configuration with its own root, state and socket, the CNI above, cgroupfs
# cgroups, and two keys for hosts where root is confined: restrict_oom_score_adj (without
# CAP_SYS_RESOURCE every pod fails with "runc create failed: ... can't get final child's PID from
# pipe: EOF") and disable_apparmor (no AppArmor on such hosts).
mkdir -p "$CONTAINERD_ROOT" "$CONTAINERD_STATE"
containerd config default | sed \
  -e "s#^root = .*#root = \"$CONTAINERD_ROOT\"#" \
  -e "s#^state = .*#state = \"$CONTAINERD_STATE\"#" \
  -e "/^\[grpc\]/,/^\[/ s#^  address = .*#  address = \"$CONTAINERD_SOCK\"#" \
  -e "s#sandbox_image = .*#sandbox_image = \"$PAUSE_IMAGE\"#" \
  -e "s#restrict_oom_score_adj = .*#restrict_oom_score_adj = true#" \
  -e "s#disable_apparmor = .*#disable_apparmor = true#" \
  -e "s#SystemdCgroup = .*#SystemdCgroup = false#" \
  -e "s#^\( *\)bin_dir = .*#\1bin_dir = \"/usr/lib/cni\"#" \
  -e "s#^\( *\)conf_dir = .*#\1conf_dir = \"$JTO_STATE/cni/conf\"#" \
  -e "s#path = \"/opt/containerd\"#path = \"$CONTAINERD_ROOT/opt\"#" \
  -e "s#^\( *\)Root = \"\"#\1Root = \"$CONTAINERD_STATE/runc\"#" >containerd.toml
start containerd containerd --config "$JTO_STATE/containerd.toml"
wait_for 30 "containerd (see $JTO_STATE/logs/containerd.log)" ctr -a "$CONTAINERD_SOCK" version
"$REPO_ROOT/deploy/local/images.sh" pause

# --- kubelet ------------------------------------------------------------------------------------
# Its cgroup parent must exist in every cgroup v1 hierarchy, cpuset filled in, before it starts.
for hierarchy in /sys/fs/cgroup/*/; do
  [ -d "$hierarchy" ] && [ ! -L "${hierarchy%/}" ] || continue
  mkdir -p "$hierarchy$NODE_CGROUP" && echo "$hierarchy$NODE_CGROUP" >>host/cgroups
  if [ -f "${hierarchy}cpuset.cpus" ]; then
    cat "${hierarchy}cpuset.cpus" >"$hierarchy$NODE_CGROUP/cpuset.cpus"
    cat "${hierarchy}cpuset.mems" >"$hierarchy$NODE_CGROUP/cpuset.mems"
  fi
done
cat >kubelet.yaml <<KUBELET
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# Kubernetes 1.36 refuses cgroup v1 unless told otherwise; this machine has only v1 controllers.
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: /$NODE_CGROUP
failSwapOn: false
# The images come from ctr import and can't be pulled again: never collect them.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
address: $NODE_IP
port: $KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $KUBELET_HEALTHZ_PORT
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $JTO_STATE/pki/ca.crt}
authorization: {mode: Webhook}
serializeImagePulls: false
KUBELET
start kubelet kubelet --config kubelet.yaml --kubeconfig "$KUBECONFIG_FILE" --hostname-override "$NODE_NAME" \
  --node-ip "$NODE_IP" --root-dir "$JTO_STATE/kubelet" --cert-dir "$JTO_STATE/kubelet/pki"
wait_for 90 "node $NODE_NAME Ready (see $JTO_STATE/logs/kubelet.log)" \
  kubectl --kubeconfig "$KUBECONFIG_FILE" wait --for=condition=Ready --timeout=2s "node/$NODE_NAME"

echo "local cluster up (node $NODE_NAME Ready): export KUBECONFIG=$KUBECONFIG_FILE" >&2
