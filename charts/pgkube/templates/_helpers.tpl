{{/* Names */}}
{{- define "pgkube.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "pgkube.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* A name derived from the full name: (list $ "suffix") */}}
{{- define "pgkube.child" -}}
{{- $root := index . 0 -}}
{{- printf "%s-%s" (include "pgkube.fullname" $root | trunc (int (sub 62 (len (index . 1)))) | trimSuffix "-") (index . 1) -}}
{{- end -}}

{{- define "pgkube.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "pgkube.selectorLabels" -}}
app.kubernetes.io/name: {{ include "pgkube.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "pgkube.labels" -}}
helm.sh/chart: {{ include "pgkube.chart" . }}
{{ include "pgkube.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "pgkube.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "pgkube.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "pgkube.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* The Service's DNS names, which the serving certificate must cover (kube-aggregator checks <svc>.<ns>.svc) */}}
{{- define "pgkube.dnsNames" -}}
{{- $svc := include "pgkube.fullname" . -}}
{{- $ns := .Release.Namespace -}}
{{- $names := list $svc (printf "%s.%s" $svc $ns) (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.cluster.local" $svc $ns) -}}
{{- toYaml (concat $names .Values.tls.extraDnsNames) -}}
{{- end -}}

{{/*
The group/versions pgkube serves, keyed by APIService name (<version>.<group>): every served version of
apiDefinitions, and apiService.extra. Printed as YAML; read with fromYaml.
*/}}
{{- define "pgkube.groupVersions" -}}
{{- $gvs := dict -}}
{{- range $i, $crd := .Values.apiDefinitions -}}
{{- if or (ne (toString $crd.apiVersion) "apiextensions.k8s.io/v1") (ne (toString $crd.kind) "CustomResourceDefinition") -}}
{{- fail (printf "apiDefinitions[%d] is not an apiextensions.k8s.io/v1 CustomResourceDefinition" $i) -}}
{{- end -}}
{{- $group := required (printf "apiDefinitions[%d].spec.group is required" $i) $crd.spec.group -}}
{{- range $crd.spec.versions -}}
{{- if .served -}}
{{- $_ := set $gvs (printf "%s.%s" .name $group) (dict "group" $group "version" .name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- range .Values.apiService.extra -}}
{{- $_ := set $gvs (printf "%s.%s" .version .group) (dict "group" .group "version" .version) -}}
{{- end -}}
{{- toYaml $gvs -}}
{{- end -}}

{{/*
The serving certificate, made once per render (kept in .Values, so every template sees the same one): the
existing Secret's (tls.existingSecret), else the one Helm generated at install (read back with lookup, so an
upgrade keeps it), else a new CA and certificate. Printed as YAML {crt, key, ca}; ca may be empty for an
existing Secret whose CA is unknown.
*/}}
{{- define "pgkube.tls" -}}
{{- if not (hasKey .Values "pgkubeTlsMemo") -}}
{{- $tls := dict "crt" "" "key" "" "ca" "" -}}
{{- if .Values.tls.existingSecret -}}
{{- $_ := set $tls "ca" .Values.tls.caBundle -}}
{{- if not $tls.ca -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace .Values.tls.existingSecret -}}
{{- if and $existing $existing.data (hasKey $existing.data "ca.crt") -}}
{{- $_ := set $tls "ca" (index $existing.data "ca.crt" | b64dec) -}}
{{- end -}}
{{- end -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "pgkube.child" (list . "tls")) -}}
{{- if and $existing $existing.data (hasKey $existing.data "tls.crt") (hasKey $existing.data "tls.key") (hasKey $existing.data "ca.crt") -}}
{{- $_ := set $tls "crt" (index $existing.data "tls.crt" | b64dec) -}}
{{- $_ := set $tls "key" (index $existing.data "tls.key" | b64dec) -}}
{{- $_ := set $tls "ca" (index $existing.data "ca.crt" | b64dec) -}}
{{- else -}}
{{- $days := int .Values.tls.validityDays -}}
{{- $ca := genCA (printf "%s-ca" (include "pgkube.fullname" .)) $days -}}
{{- $names := include "pgkube.dnsNames" . | fromYamlArray -}}
{{- $cert := genSignedCert (index $names 2) nil $names $days $ca -}}
{{/* the chain: pgkube's self-registration takes its --tls-cert-file as the APIServices' caBundle */}}
{{- $_ := set $tls "crt" (printf "%s%s" $cert.Cert $ca.Cert) -}}
{{- $_ := set $tls "key" $cert.Key -}}
{{- $_ := set $tls "ca" $ca.Cert -}}
{{- end -}}
{{- end -}}
{{- $_ := set .Values "pgkubeTlsMemo" $tls -}}
{{- end -}}
{{- toYaml .Values.pgkubeTlsMemo -}}
{{- end -}}

{{- define "pgkube.tlsSecretName" -}}
{{- default (include "pgkube.child" (list . "tls")) .Values.tls.existingSecret -}}
{{- end -}}

{{/* PostgreSQL for evaluation: its password, made once per render and kept across upgrades */}}
{{- define "pgkube.postgresql.fullname" -}}
{{- include "pgkube.child" (list . "postgresql") -}}
{{- end -}}

{{- define "pgkube.postgresql.password" -}}
{{- if not (hasKey .Values "pgkubePasswordMemo") -}}
{{- $password := .Values.postgresql.password -}}
{{- if not $password -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "pgkube.postgresql.fullname" .) -}}
{{- if and $existing $existing.data (hasKey $existing.data "password") -}}
{{- $password = index $existing.data "password" | b64dec -}}
{{- else -}}
{{- $password = randAlphaNum 32 -}}
{{- end -}}
{{- end -}}
{{- $_ := set .Values "pgkubePasswordMemo" $password -}}
{{- end -}}
{{- .Values.pgkubePasswordMemo -}}
{{- end -}}

{{- define "pgkube.postgresql.enabled" -}}
{{- if and .Values.deployment.enabled .Values.postgresql.enabled (not .Values.database.existingSecret) -}}true{{- end -}}
{{- end -}}

{{/* The Secret and key of the PostgreSQL URL */}}
{{- define "pgkube.databaseSecretRef" -}}
{{- if .Values.database.existingSecret -}}
name: {{ .Values.database.existingSecret }}
key: {{ .Values.database.existingSecretKey }}
{{- else if include "pgkube.postgresql.enabled" . -}}
name: {{ include "pgkube.postgresql.fullname" . }}
key: url
{{- else -}}
{{- fail "set database.existingSecret (a Secret holding the PostgreSQL URL) or postgresql.enabled" -}}
{{- end -}}
{{- end -}}

{{/* The kubeconfig of the host (the cluster's kube-apiserver), with the pod's service account credentials */}}
{{- define "pgkube.hostKubeconfigPath" -}}/etc/pgkube/host/kubeconfig{{- end -}}

{{- define "pgkube.serverSelectorLabels" -}}
{{ include "pgkube.selectorLabels" . }}
app.kubernetes.io/component: apiserver
{{- end -}}

{{- define "pgkube.postgresql.selectorLabels" -}}
{{ include "pgkube.selectorLabels" . }}
app.kubernetes.io/component: postgresql
{{- end -}}
