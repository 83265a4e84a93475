{{/* Names: the chart's, the release's full name (63 characters at most), and the labels. */}}
{{- define "lookout.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "lookout.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "lookout.selectorLabels" -}}
app.kubernetes.io/name: {{ include "lookout.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "lookout.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "lookout.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "lookout.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "lookout.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "lookout.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The name this Lookout pushes under as an agent, and its telemetry topology's name. */}}
{{- define "lookout.agentName" -}}
{{- default .Release.Name .Values.agentName }}
{{- end }}

{{- define "lookout.topologyName" -}}
{{- default (include "lookout.agentName" .) .Values.pushTelemetry.topologyName }}
{{- end }}

{{/* Documents applied with `lookout apply` before the server starts (see resources.yaml). */}}
{{- define "lookout.hasResources" -}}
{{- if or .Values.kubernetes.enabled .Values.pushTelemetry.enabled }}true{{ end }}
{{- end }}

{{- define "lookout.dataVolumeClaim" -}}
{{- default (printf "%s-data" (include "lookout.fullname" .)) .Values.persistence.existingClaim }}
{{- end }}

{{/*
The environment every Lookout container gets: the server's settings, the database, and in
agent mode the upstream, the agent's name and its token. Secrets come from the chart's Secret
or from the user's own.
*/}}
{{- define "lookout.env" -}}
- name: HOST
  value: "0.0.0.0"
- name: PORT
  value: "8080"
- name: LOOKOUT_DATA_DIR
  value: /data
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: LOOKOUT_SECRET_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "lookout.fullname" . }}
      key: LOOKOUT_SECRET_KEY
{{- if .Values.database.existingSecret }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.existingSecret }}
      key: {{ .Values.database.existingSecretKey }}
{{- else if .Values.database.url }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "lookout.fullname" . }}
      key: DATABASE_URL
{{- end }}
{{- with .Values.publicUrl }}
- name: LOOKOUT_PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.admin.email }}
- name: LOOKOUT_ADMIN_EMAIL
  value: {{ . | quote }}
{{- end }}
{{- if .Values.admin.password }}
- name: LOOKOUT_ADMIN_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "lookout.fullname" . }}
      key: LOOKOUT_ADMIN_PASSWORD
{{- end }}
{{- if .Values.upstream.host }}
- name: LOOKOUT_UPSTREAM_URL
  value: {{ .Values.upstream.host | quote }}
- name: LOOKOUT_AGENT_NAME
  value: {{ include "lookout.agentName" . | quote }}
- name: LOOKOUT_AGENT_TOKEN
  valueFrom:
    secretKeyRef:
      {{- if .Values.upstream.existingSecret }}
      name: {{ .Values.upstream.existingSecret }}
      key: {{ .Values.upstream.existingSecretKey }}
      {{- else }}
      name: {{ include "lookout.fullname" . }}
      key: LOOKOUT_AGENT_TOKEN
      {{- end }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}
