import {
  PLAYBOOK_PARAMETER_MESSAGES,
  PLAYBOOK_UI_TEXTS,
  parsePlaybookSpec,
  type PlaybookSpec,
} from '@lookout/contracts';
import { parse, stringify } from 'yaml';

/** A new playbook's starting spec: one exec action, runnable on any check. */
export const NEW_PLAYBOOK_SPEC_YAML = stringify({
  category: 'Other',
  checks: [{ name: '*' }],
  actions: [{ name: 'echo', exec: { script: 'echo "{{ .check.name }}"' } }],
});

/** A stored spec as the editor's YAML. */
export const specToYaml = (spec: Record<string, unknown> | null | undefined): string =>
  spec && Object.keys(spec).length > 0 ? stringify(spec) : '';

export interface PlaybookFormErrors {
  title?: string;
  spec?: string[];
}

/**
 * Reads the form (spec 2 section 2.5: title and spec required) and checks the spec with the
 * schema `/api/schemas/playbook-spec.schema.json` is generated from, so the editor refuses
 * what the server would, each problem naming its field (`spec.actions[0].exec.script: ...`).
 */
export function readPlaybookForm(
  title: string,
  specText: string,
): { ok: true; title: string; spec: PlaybookSpec } | { ok: false; errors: PlaybookFormErrors } {
  const errors: PlaybookFormErrors = {};
  const trimmed = title.trim();
  if (!trimmed) errors.title = PLAYBOOK_PARAMETER_MESSAGES.required;
  let document: unknown;
  if (!specText.trim()) {
    errors.spec = [PLAYBOOK_PARAMETER_MESSAGES.required];
  } else {
    try {
      document = parse(specText);
    } catch (error) {
      errors.spec = [
        `${PLAYBOOK_UI_TEXTS.form.invalidYaml}: ${error instanceof Error ? error.message : String(error)}`,
      ];
    }
  }
  if (!errors.spec) {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      errors.spec = [PLAYBOOK_UI_TEXTS.form.specNotObject];
    } else {
      const result = parsePlaybookSpec(document);
      if (!result.ok) errors.spec = result.problems.map((problem) => problem.message);
      else if (!errors.title) return { ok: true, title: trimmed, spec: result.spec };
    }
  }
  return { ok: false, errors };
}
