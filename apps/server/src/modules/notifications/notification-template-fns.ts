import { celCompileProblem, evaluateCel } from '../../cel/cel-program.js';
import { fromCel } from '../../cel/cel-values.js';

/**
 * Titles and bodies of notifications. A template is Markdown with `{{ expression }}` parts; an
 * expression is CEL over the event's variables (`check.name`, `canary.namespace`,
 * `check_status.message`, ...), and the Go-template spelling of a field path the original's
 * templates use (`{{ .check.name }}`) reads the same. A part that fails renders as empty
 * text and the failure is kept beside the message, so one bad field never stops a message.
 */

const PART = /\{\{-?\s*([\s\S]*?)\s*-?\}\}/g;

/** A Go-template field path (`.check.name`) as the CEL expression it means. */
function expressionOf(source: string): string {
  return source.startsWith('.') ? source.slice(1) : source;
}

/** Why a template does not compile (the first bad part), or undefined. */
export function templateProblem(template: string): string | undefined {
  let open = 0;
  for (const match of template.matchAll(/\{\{|\}\}/g)) open += match[0] === '{{' ? 1 : -1;
  if (open !== 0) return 'every {{ needs a matching }}.';
  for (const match of template.matchAll(PART)) {
    const expression = expressionOf(match[1] ?? '');
    if (expression === '') return 'an empty {{ }}.';
    const problem = celCompileProblem(expression);
    if (problem) return `'{{ ${match[1]} }}' is not a valid expression (${problem}).`;
  }
  return undefined;
}

export type Rendered = { text: string; errors: string[] };

function display(value: unknown): string {
  const plain = fromCel(value);
  if (plain === null || plain === undefined) return '';
  if (typeof plain === 'object') return JSON.stringify(plain);
  return String(plain);
}

/** The template with each part replaced by its value over `variables`. */
export function renderTemplate(template: string, variables: Record<string, unknown>): Rendered {
  const errors: string[] = [];
  const text = template.replace(PART, (_whole, source: string) => {
    const outcome = evaluateCel(expressionOf(source), variables);
    if (outcome.ok) return display(outcome.value);
    errors.push(`{{ ${source} }}: ${outcome.error}`);
    return '';
  });
  return { text, errors };
}

/** The title a rule without one gets, by event (the original generates one too). */
export function defaultTitle(eventName: string): string {
  const [kind, state] = eventName.split('.');
  if (kind === 'check') {
    return state === 'failed' ? 'Check {{ check.name }} has failed' : 'Check {{ check.name }} has passed';
  }
  if (kind === 'component') return `Component {{ component.name }} is ${state}`;
  // created, updated and deleted say what happened to the item; the rest are its health.
  if (kind === 'config')
    return ['created', 'updated', 'deleted'].includes(state ?? '')
      ? `{{ config.type }} {{ config.name }} was ${state}`
      : `{{ config.type }} {{ config.name }} is ${state}`;
  // The original renders none for the playbook events; these name the playbook and what changed.
  if (eventName === 'playbook.approval.inserted') return 'Playbook {{ playbook.name }}: run approved';
  if (eventName === 'playbook.spec.approval.updated') return 'Playbook {{ playbook.name }}: approval settings updated';
  return eventName;
}

/** The body of a component or catalog event: type, status, description, then the links. */
function resourceBody(variable: 'component' | 'config', view: string): string {
  return [
    `**Type**: {{ ${variable}.type }}`,
    `**Status**: {{ ${variable}.status }}`,
    `**Health**: {{ ${variable}.health }}`,
    `{{ ${variable}.description }}`,
    '',
    `[${view}]({{ permalink }}) · [Silence]({{ silenceURL }})`,
  ].join('\n');
}

/** The body a rule without a template gets, by event. */
export function defaultBody(eventName: string): string {
  if (eventName.startsWith('check.')) {
    return [
      '**Canary**: {{ canary.namespace }}/{{ canary.name }}',
      '**Check**: {{ check.name }} ({{ check.type }})',
      '**Status**: {{ check.status }}',
      '{{ check_status.error }}',
      '',
      '[View check]({{ permalink }}) · [Silence]({{ silenceURL }})',
    ].join('\n');
  }
  if (eventName.startsWith('component.')) return resourceBody('component', 'View component');
  if (eventName.startsWith('config.')) return resourceBody('config', 'View catalog item');
  if (eventName === 'playbook.approval.inserted') {
    return [
      '**Playbook**: {{ playbook.name }}',
      '**Run status**: {{ run.status }}',
      '**Approved by**: {{ approval.approver }}',
      '',
      '[View run]({{ permalink }})',
    ].join('\n');
  }
  if (eventName === 'playbook.spec.approval.updated') {
    return [
      '**Playbook**: {{ playbook.name }}',
      '**Approval**: {{ approval }}',
      '',
      '[View runs]({{ permalink }})',
    ].join('\n');
  }
  return '{{ source_event }} at {{ event_time }}';
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Inline Markdown: links, bold, italics and code, on escaped text. */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+|\/[^)\s]*)\)/g, '<a href="$2">$1</a>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*]+)\*/g, '$1<em>$2</em>');
}

/**
 * The small part of Markdown notification bodies use, as HTML (for email and the history
 * detail): headings, bullet lists, paragraphs and the inline forms above. Everything else is
 * escaped text, so a resource's name can never inject markup.
 */
export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  let list: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(`<p>${paragraph.map(inline).join('<br>')}</p>`);
    if (list.length > 0) out.push(`<ul>${list.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`);
    paragraph = [];
    list = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1]?.length ?? 1;
      out.push(`<h${level}>${inline(heading[2] ?? '')}</h${level}>`);
    } else if (item) {
      if (paragraph.length > 0) flush();
      list.push(item[1] ?? '');
    } else if (line.trim() === '') flush();
    else {
      if (list.length > 0) flush();
      paragraph.push(line);
    }
  }
  flush();
  return out.join('\n');
}

/** Markdown as plain text for services without formatting (links as `text (url)`). */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '$1 ($2)')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/^#{1,6}\s+/gm, '');
}
