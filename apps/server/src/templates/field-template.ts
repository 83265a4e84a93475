/**
 * Field templates: `{{ .metadata.name }}-{{ .kind | lower }}`, the subset of Go templates that
 * names things, as scrapers (`id`, `name`, ... expressions) and topologies (`id.template`,
 * forEach specs) write them. A placeholder is a field path of the value in hand (`.` is the
 * value itself), optionally piped through `lower`, `upper` or `trim`; Go's `{{-`/`-}}` trim
 * markers are accepted. A missing field is empty text and an object is its JSON.
 */

/** A placeholder that is no field path, or an unknown pipe; the message names the template. */
export class FieldTemplateError extends Error {}

const PLACEHOLDER = /\{\{-?\s*(.*?)\s*-?\}\}/g;
const FIELD_PATH = /^(\.[A-Za-z_][\w-]*)+$/;

const PIPES: Record<string, (text: string) => string> = {
  lower: (text) => text.toLowerCase(),
  upper: (text) => text.toUpperCase(),
  trim: (text) => text.trim(),
};

/** The value at a dotted path (`.labels.app`, `.`), or undefined. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
}

/** True when the text holds a placeholder (only such strings need rendering). */
export function hasPlaceholder(text: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  return PLACEHOLDER.test(text);
}

/**
 * The template with each placeholder filled from `value`. A bad placeholder throws `Failure`
 * (FieldTemplateError unless the caller names its own area's error).
 */
export function renderFieldTemplate(
  template: string,
  value: unknown,
  Failure: new (message: string) => Error = FieldTemplateError,
): string {
  return template.replace(PLACEHOLDER, (_, inner: string) => {
    const [path = '', ...pipes] = inner.split('|').map((part) => part.trim());
    if (path !== '.' && !FIELD_PATH.test(path)) {
      throw new Failure(
        `template '${template}': '${path}' is not a field path (use {{ .field.sub }}, optionally | lower, upper or trim)`,
      );
    }
    let text = asText(valueAtPath(value, path));
    for (const pipe of pipes) {
      const apply = PIPES[pipe];
      if (!apply) {
        throw new Failure(`template '${template}': unknown function '${pipe}' (use lower, upper or trim)`);
      }
      text = apply(text);
    }
    return text;
  });
}
