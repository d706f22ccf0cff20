#!/usr/bin/env bash
# The other controllers a production cluster runs beside the operator, installed from their own releases'
# manifests on the local cluster (up.sh): metrics-server, which serves the metrics API (metrics.k8s.io) the
# HorizontalPodAutoscaler controller and the VPA read, and the Vertical Pod Autoscaler's recommender, updater
# and admission controller with its CRDs and RBAC. Only the image (images.sh autoscalers: the same programs
# built from the same releases) and what a cluster without kube-proxy needs differ:
#   - each container reaches the API server at the node's address;
#   - metrics-server accepts the kubelet's self-signed serving certificate;
#   - the recommender and updater work in 15-second intervals, and the updater may update a Deployment of one
#     replica and a pod younger than 12 hours within its recommendation's bounds, so that a check sees in
#     minutes what a cluster sees in hours.
# Usage: autoscalers.sh up | down | manifests
#   up waits until the metrics API answers and every component is Ready; manifests prints what up applies.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

module_dir() { go mod download -json "$1" | jq -r .Dir; }

# The releases' own kustomizations, with this cluster's differences as patches.
render() {
  local metrics_server vpa
  retry "Go module $METRICS_SERVER_MODULE" go mod download "$METRICS_SERVER_MODULE"
  retry "Go module $VPA_MODULE" go mod download "$VPA_MODULE"
  # kustomize takes other kustomizations by relative paths only.
  metrics_server="$(realpath --relative-to="$work" "$(module_dir "$METRICS_SERVER_MODULE")/manifests/base")"
  vpa="$(realpath --relative-to="$work" "$(module_dir "$VPA_MODULE")/deploy")"
  local api="{name: KUBERNETES_SERVICE_HOST, value: '$NODE_IP'}, {name: KUBERNETES_SERVICE_PORT, value: '$APISERVER_PORT'}"
  cat >"$work/kustomization.yaml" <<YAML
resources: [$metrics_server, $vpa]
images:
- {name: gcr.io/k8s-staging-metrics-server/metrics-server, newName: ${AUTOSCALERS_IMAGE%:*}, newTag: $IMAGE_VERSION}
- {name: registry.k8s.io/autoscaling/vpa-recommender, newName: ${AUTOSCALERS_IMAGE%:*}, newTag: $IMAGE_VERSION}
- {name: registry.k8s.io/autoscaling/vpa-updater, newName: ${AUTOSCALERS_IMAGE%:*}, newTag: $IMAGE_VERSION}
- {name: registry.k8s.io/autoscaling/vpa-admission-controller, newName: ${AUTOSCALERS_IMAGE%:*}, newTag: $IMAGE_VERSION}
patches: [{path: local-node.yaml}]
YAML
  cat >"$work/local-node.yaml" <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: metrics-server, namespace: kube-system}
spec:
  template:
    spec:
      containers:
      - name: metrics-server
        imagePullPolicy: Never
        command: [/metrics-server]
        args: [--cert-dir=/tmp, --secure-port=10250, --kubelet-preferred-address-types=InternalIP, --kubelet-use-node-status-port,
               --metric-resolution=15s, --kubelet-insecure-tls]
        env: [$api]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: vpa-recommender, namespace: kube-system}
spec:
  template:
    spec:
      containers:
      - name: recommender
        imagePullPolicy: Never
        command: [/recommender]
        args: [--recommender-interval=15s]
        env: [$api]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: vpa-updater, namespace: kube-system}
spec:
  template:
    spec:
      containers:
      - name: updater
        imagePullPolicy: Never
        command: [/updater]
        args: [--updater-interval=15s, --min-replicas=1, --in-recommendation-bounds-eviction-lifetime-threshold=1m]
        env: [$api]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: vpa-admission-controller, namespace: kube-system}
spec:
  template:
    spec:
      containers:
      - name: admission-controller
        imagePullPolicy: Never
        command: [/admission-controller]
        args: [--reload-cert]
        env: [$api]
YAML
  # The metrics-server release's kustomization uses commonLabels, which kustomize warns of on every render.
  kubectl kustomize "$work" 2> >(grep -v "'commonLabels' is deprecated" >&2)
}

# The admission controller's serving certificate, for the name the API server calls it by (its Service's), as the
# release's gencerts.sh makes it; the controller registers its webhook with this CA.
webhook_certificate() {
  kubectl get secret -n kube-system vpa-tls-certs >/dev/null 2>&1 && return 0
  local certs="$work"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=vpa_webhook_ca" \
    -keyout "$certs/caKey.pem" -out "$certs/caCert.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=vpa-webhook.kube-system.svc" \
    -keyout "$certs/serverKey.pem" -out "$certs/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:vpa-webhook.kube-system.svc\nextendedKeyUsage=serverAuth\n' >"$certs/server.ext"
  openssl x509 -req -in "$certs/server.csr" -CA "$certs/caCert.pem" -CAkey "$certs/caKey.pem" -CAcreateserial \
    -days 30 -extfile "$certs/server.ext" -out "$certs/serverCert.pem" 2>/dev/null
  kubectl create secret generic vpa-tls-certs -n kube-system --from-file="$certs/caCert.pem" \
    --from-file="$certs/serverKey.pem" --from-file="$certs/serverCert.pem" >/dev/null
}

metrics_api_answers() { kubectl get --raw "/apis/metrics.k8s.io/v1beta1/nodes/$NODE_NAME" >/dev/null 2>&1; }
webhook_registered() { kubectl get mutatingwebhookconfiguration vpa-webhook-config >/dev/null 2>&1; }

up() {
  "$REPO_ROOT/deploy/local/images.sh" autoscalers
  render >"$work/manifests.yaml"
  webhook_certificate
  kubectl apply --server-side -f "$work/manifests.yaml" >/dev/null
  local deployment
  for deployment in metrics-server vpa-recommender vpa-updater vpa-admission-controller; do
    kubectl rollout status "deployment/$deployment" -n kube-system --timeout=180s >/dev/null
  done
  wait_for 120 "the metrics API (metrics-server's APIService)" metrics_api_answers
  wait_for 60 "the VPA's admission webhook registered" webhook_registered
  log "up: metrics-server and the VPA (recommender, updater, admission controller) in kube-system"
}

# Everything up made, and first the webhook the admission controller registered itself: left behind, it would hold every
# pod's admission for its timeout once its server is gone. The controller registers it only when it starts.
down() {
  render >"$work/manifests.yaml"
  kubectl delete mutatingwebhookconfiguration vpa-webhook-config --ignore-not-found >/dev/null
  kubectl delete -f "$work/manifests.yaml" --ignore-not-found --wait=false >/dev/null
  kubectl delete secret -n kube-system vpa-tls-certs --ignore-not-found >/dev/null
}

manifests() { render; }

case "${1:-}" in
  up | down | manifests) "$1" ;;
  *) echo "usage: $0 up|down|manifests" >&2; exit 2 ;;
esac
