import { parsePlaybookDocument, PLAYBOOK_KIND } from '@lookout/contracts';
import type { DocumentApplierFactory } from '../../cli/document-applier.js';

/**
 * `lookout apply -f playbook.yaml` for `kind: Playbook` documents (mission-control's CRD
 * shape). The playbook is created or updated by namespace, name and category with the
 * command's source; title, icon, description and category come from the spec.
 */
export const playbookApplier: DocumentApplierFactory = ({ pool }) => ({
  async apply(document, source) {
    const parsed = parsePlaybookDocument(document);
    if (!parsed.ok)
      throw new Error(`invalid ${PLAYBOOK_KIND}: ${parsed.problems.map((problem) => problem.message).join('; ')}`);
    const { metadata, spec } = parsed.document;
    const category = spec.category ?? '';
    const { rows } = await pool.query<{ created: boolean }>(
      `WITH existing AS (
         UPDATE playbooks SET title = $3, icon = $4, description = $5, spec = $7, source = $8
          WHERE namespace = $1 AND name = $2 AND category = $6 AND deleted_at IS NULL RETURNING id)
       INSERT INTO playbooks (namespace, name, title, icon, description, category, spec, source)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE NOT EXISTS (SELECT 1 FROM existing)
       RETURNING true AS created`,
      [
        metadata.namespace,
        metadata.name,
        spec.title ?? metadata.name,
        spec.icon ?? null,
        spec.description ?? null,
        category,
        spec,
        source,
      ],
    );
    return `playbook ${metadata.namespace}/${metadata.name} ${rows.length > 0 ? 'created' : 'updated'}`;
  },
});
