import type { FlowBody } from '../api/flow-types';

/** Sets `a.b.c` inside `target` as nested objects (Kratos node names use dots for JSON paths). */
function setPath(target: FlowBody, name: string, value: unknown): void {
  const parts = name.split('.');
  let cursor: FlowBody = target;
  for (const part of parts.slice(0, -1)) {
    const next = cursor[part];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      cursor = next as FlowBody;
    } else {
      const created: FlowBody = {};
      cursor[part] = created;
      cursor = created;
    }
  }
  cursor[parts[parts.length - 1] ?? name] = value;
}

/**
 * The JSON body of a flow form, as a browser would post it: every named input (checkboxes as
 * booleans), plus the clicked button's name and value. Without a `method` (a WebAuthn script
 * submits the form itself, an OIDC button is named `provider`) the form's group is the method,
 * as Kratos's node groups are named after the methods.
 */
export function flowBodyOf(form: HTMLFormElement, submitter: Element | null, group: string): FlowBody {
  const body: FlowBody = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement) || !element.name || element.disabled) continue;
    if (element.type === 'submit' || element.type === 'button' || element.type === 'image') continue;
    setPath(body, element.name, element.type === 'checkbox' ? element.checked : element.value);
  }
  if ((submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) && submitter.name) {
    setPath(body, submitter.name, submitter.value);
  }
  if (body.method === undefined || body.method === '') body.method = group;
  return body;
}
