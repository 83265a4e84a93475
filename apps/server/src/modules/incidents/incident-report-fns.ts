import { HYPOTHESIS_STATUS_LABELS, type HypothesisStatus, type TimelineEntry } from '@lookout/contracts';

/**
 * The automatic timeline (merged by time) and the post-incident report in Markdown: pure
 * shaping of what the repository read (docs/incidents.md).
 */

/** Entries of every source in one list, oldest first; ties keep the sources' order. */
export function mergeTimeline(...sources: readonly (readonly TimelineEntry[])[]): TimelineEntry[] {
  return sources
    .flat()
    .map((entry, index) => ({ entry, index, at: Date.parse(entry.at) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ entry }) => entry);
}

export type ReportIncident = {
  incident_id: string;
  title: string;
  description: string;
  type: string;
  severity: string;
  status: string;
  created_at: string;
  acknowledged: string | null;
  resolved: string | null;
  closed: string | null;
  commander: string | null;
  created_by: string | null;
};

export type ReportHypothesis = {
  id: string;
  parent_id: string | null;
  type: string;
  title: string;
  status: string;
  evidences: { type: string; description: string; definition_of_done: boolean; done: boolean }[];
  comments: { comment: string; created_by: string | null; created_at: string }[];
};

export type ReportResponder = {
  name: string;
  responderType: string | null;
  created_at: string;
  acknowledge_time: string | null;
  external_id: string | null;
};

/** Markdown has no escaping rule everyone agrees on; these keep a line from turning into markup. */
function inline(value: string): string {
  return value.replace(/\r?\n/g, ' ').replace(/([\\`*_[\]|<>#])/g, '\\$1');
}

/** A duration as "2h 5m" (seconds dropped past an hour). */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '-';
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [days ? `${days}d` : '', hours ? `${hours}h` : '', minutes ? `${minutes}m` : ''].filter(Boolean);
  if (days === 0 && hours === 0) parts.push(`${seconds % 60}s`);
  return parts.join(' ') || '0s';
}

function between(from: string, to: string | null): string {
  return to ? humanDuration(Date.parse(to) - Date.parse(from)) : '-';
}

function statusLabel(status: string): string {
  return HYPOTHESIS_STATUS_LABELS[status as HypothesisStatus] ?? status;
}

function hypothesisLines(all: readonly ReportHypothesis[], parent: string | null, depth: number): string[] {
  const lines: string[] = [];
  for (const node of all.filter((h) => h.parent_id === parent)) {
    const pad = '  '.repeat(depth);
    lines.push(`${pad}- **${inline(node.title || '(untitled)')}** (${node.type}, ${statusLabel(node.status)})`);
    for (const evidence of node.evidences) {
      const dod = evidence.definition_of_done
        ? evidence.done
          ? ' [definition of done: done]'
          : ' [definition of done: open]'
        : '';
      lines.push(`${pad}  - Evidence (${evidence.type}): ${inline(evidence.description || '-')}${dod}`);
    }
    for (const comment of node.comments) {
      lines.push(
        `${pad}  - Comment by ${inline(comment.created_by ?? 'unknown')} at ${comment.created_at}: ${inline(comment.comment)}`,
      );
    }
    lines.push(...hypothesisLines(all, node.id, depth + 1));
  }
  return lines;
}

/** The post-incident report: summary, key times, responders, hypothesis tree, timeline. */
export function incidentMarkdown(
  incident: ReportIncident,
  hypotheses: readonly ReportHypothesis[],
  responders: readonly ReportResponder[],
  timeline: readonly TimelineEntry[],
): string {
  const out: string[] = [
    `# ${incident.incident_id}: ${inline(incident.title)}`,
    '',
    '| Field | Value |',
    '|---|---|',
    `| Type | ${incident.type} |`,
    `| Severity | ${incident.severity} |`,
    `| Status | ${incident.status} |`,
    `| Commander | ${inline(incident.commander ?? '-')} |`,
    `| Created by | ${inline(incident.created_by ?? '-')} |`,
    `| Started | ${incident.created_at} |`,
    `| Acknowledged | ${incident.acknowledged ?? '-'} (after ${between(incident.created_at, incident.acknowledged)}) |`,
    `| Resolved | ${incident.resolved ?? '-'} (after ${between(incident.created_at, incident.resolved)}) |`,
    `| Closed | ${incident.closed ?? '-'} (after ${between(incident.created_at, incident.closed)}) |`,
    '',
  ];
  if (incident.description.trim()) out.push('## Description', '', incident.description.trim(), '');
  out.push('## Responders', '');
  if (responders.length === 0) out.push('None.');
  for (const responder of responders) {
    const ack = responder.acknowledge_time
      ? `acknowledged after ${between(responder.created_at, responder.acknowledge_time)}`
      : 'not acknowledged';
    const ticket = responder.external_id ? `, ticket ${inline(responder.external_id)}` : '';
    out.push(`- ${inline(responder.name)} (${responder.responderType ?? 'person'}): ${ack}${ticket}`);
  }
  out.push('', '## Hypotheses and evidence', '');
  const tree = hypothesisLines(hypotheses, null, 0);
  out.push(...(tree.length > 0 ? tree : ['None.']));
  out.push('', '## Timeline', '');
  if (timeline.length === 0) out.push('Nothing recorded.');
  for (const entry of timeline) {
    const detail = entry.detail ? `: ${inline(entry.detail)}` : '';
    out.push(`- ${entry.at} [${entry.kind}] ${inline(entry.title)}${detail}`);
  }
  out.push('');
  return out.join('\n');
}
