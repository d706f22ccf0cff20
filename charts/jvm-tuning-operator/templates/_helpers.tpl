{{- define "jto.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "jto.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "jto.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "jto.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{- define "jto.serviceAccountName" -}}
{{- default (include "jto.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{/* What the operator does, and nothing more: each rule names the code that needs it. */}}
{{- define "jto.namespacedRules" -}}
# the profiles: watch them, add and remove the cleanup finalizer, write their status
- apiGroups: [jvmtuning.dev]
  resources: [tuningprofiles]
  verbs: [get, list, watch, patch, update]
# discovery: Recommend profiles for the JVM Deployments of namespaces labelled jvmtuning.dev/discover=recommend
- apiGroups: [jvmtuning.dev]
  resources: [tuningprofiles]
  verbs: [create, delete]
- apiGroups: [jvmtuning.dev]
  resources: [tuningprofiles/status]
  verbs: [get, patch, update]
# the targets: watch them, server-side apply the operator's fields, restore them on delete
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get, list, watch, patch, update]
# the target's autoscalers, from an informer (never written): mode Auto's status, a memory-utilisation HPA's stance
- apiGroups: [autoscaling]
  resources: [horizontalpodautoscalers]
  verbs: [list, watch]
# the target's VerticalPodAutoscaler where its CRD is installed, from an informer (never written): the heap's stance beside it
- apiGroups: [autoscaling.k8s.io]
  resources: [verticalpodautoscalers]
  verbs: [list, watch]
# the rendered server properties, owned by each profile
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch, create, patch, delete]
# the target's ReplicaSets, to keep every ConfigMap an old revision still reads and, while it rolls, to tell its pods of the template in force
- apiGroups: [apps]
  resources: [replicasets]
  verbs: [list]
# the target's pods, from an informer: whose metrics to read, and whether a rollout's pods fail
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch]
# Events on profiles
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
{{- if .Values.startupBoost.allowResize }}
# spec.startupBoost: a starting pod's CPU raised in place and lowered again; the resize subresource changes
# nothing of a pod but its containers' resources
- apiGroups: [""]
  resources: [pods/resize]
  verbs: [patch]
{{- end }}
{{- end -}}
