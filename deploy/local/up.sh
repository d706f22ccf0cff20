#!/usr/bin/env bash
# Brings up a local control plane on loopback: etcd, kube-apiserver (RBAC on) and
# kube-controller-manager, and writes a kubeconfig to $JTO_STATE/kubeconfig.
# There is no scheduler and no kubelet: deploy/local/mark-pods-ready.sh plays the kubelet's part.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [ -f "$JTO_STATE/pids" ] && kubectl --kubeconfig "$KUBECONFIG_FILE" get --raw /readyz >/dev/null 2>&1; then
  echo "local control plane already running: export KUBECONFIG=$KUBECONFIG_FILE" >&2
  exit 0
fi
"$REPO_ROOT/deploy/local/down.sh" >/dev/null 2>&1 || true
mkdir -p "$JTO_STATE/pki" "$JTO_STATE/logs"
cd "$JTO_STATE"

# Certificates: one self-signed serving cert for loopback, one key pair for service-account tokens.
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=kube-apiserver" \
  -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
  -keyout pki/apiserver.key -out pki/apiserver.crt 2>/dev/null
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
    server: https://127.0.0.1:$APISERVER_PORT
    certificate-authority: $JTO_STATE/pki/apiserver.crt
users:
- name: admin
  user:
    token: $token
contexts:
- name: local
  context: {cluster: local, user: admin, namespace: default}
current-context: local
KCFG

start() { # name, then the command
  local name="$1"; shift
  nohup "$@" >"logs/$name.log" 2>&1 &
  echo "$name $!" >>pids
}
: >pids
start etcd etcd --name local --data-dir "$JTO_STATE/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" --initial-advertise-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
  --initial-cluster "local=http://127.0.0.1:$((ETCD_PORT + 1))"
start kube-apiserver kube-apiserver --bind-address 127.0.0.1 --advertise-address 127.0.0.1 \
  --secure-port "$APISERVER_PORT" --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
  --tls-cert-file pki/apiserver.crt --tls-private-key-file pki/apiserver.key \
  --token-auth-file pki/tokens.csv --authorization-mode RBAC \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file pki/sa.pub \
  --service-account-signing-key-file pki/sa.key --service-cluster-ip-range 10.96.0.0/24 \
  --disable-admission-plugins ServiceAccount

for _ in $(seq 120); do
  kubectl --kubeconfig "$KUBECONFIG_FILE" get --raw /readyz >/dev/null 2>&1 && break
  sleep 0.5
done
kubectl --kubeconfig "$KUBECONFIG_FILE" get --raw /readyz >/dev/null || {
  echo "kube-apiserver did not become ready; see $JTO_STATE/logs" >&2; exit 1; }

start kube-controller-manager kube-controller-manager --kubeconfig "$KUBECONFIG_FILE" \
  --service-account-private-key-file pki/sa.key --use-service-account-credentials=false \
  --leader-elect=false --secure-port 0 --controllers '*,-serviceaccount-token'

echo "local control plane up: export KUBECONFIG=$KUBECONFIG_FILE" >&2
