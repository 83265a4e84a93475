import { NOTIFICATION_KIND } from '@lookout/contracts';
import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import { ruleBodyProblems } from './notification-rule-fns.js';

/**
 * `lookout apply -f rule.yaml` for `kind: Notification` documents (the original's CRD shape):
 *
 *   apiVersion: mission-control.flanksource.com/v1
 *   kind: Notification
 *   metadata: { name: check-alerts, namespace: default }
 *   spec: { events: [check.failed], filter: ..., title: ..., template: ..., repeatInterval: 1h,
 *           to: { person: <id or email> | team: <id or name> | connection: connection://ns/name | url: <service URL> },
 *           properties: {...} }
 *
 * The rule is created or updated by namespace and name with the command's source.
 */

type Spec = Record<string, unknown>;
const isObject = (value: unknown): value is Spec =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const notificationApplier: DocumentApplierFactory = ({ pool }) => ({
  async apply(document, source) {
    if (!isObject(document)) throw new Error(`invalid ${NOTIFICATION_KIND}: the document is not a map`);
    const metadata = isObject(document.metadata) ? document.metadata : {};
    const name = typeof metadata.name === 'string' ? metadata.name.trim() : '';
    const namespace =
      typeof metadata.namespace === 'string' && metadata.namespace.trim() ? metadata.namespace.trim() : 'default';
    if (!name) throw new Error(`invalid ${NOTIFICATION_KIND}: metadata.name is required`);
    const spec = isObject(document.spec) ? document.spec : {};
    const to = isObject(spec.to) ? spec.to : {};

    const lookup = async (sql: string, value: unknown, field: string) => {
      if (value === undefined || value === null || value === '') return null;
      const { rows } = await pool.query<{ id: string }>(sql, [String(value)]);
      if (!rows[0]) throw new Error(`invalid ${NOTIFICATION_KIND}: spec.to.${field} '${String(value)}' was not found`);
      return rows[0].id;
    };
    const personId = await lookup(
      'SELECT id FROM people WHERE deleted_at IS NULL AND (id::text = $1 OR lower(email) = lower($1)) LIMIT 1',
      to.person,
      'person',
    );
    const teamId = await lookup(
      'SELECT id FROM teams WHERE deleted_at IS NULL AND (id::text = $1 OR name = $1) LIMIT 1',
      to.team,
      'team',
    );
    const services: Spec[] = [];
    if (typeof to.connection === 'string') services.push({ connection: to.connection });
    if (typeof to.url === 'string') services.push({ url: to.url });
    const row = {
      events: spec.events,
      filter: typeof spec.filter === 'string' ? spec.filter : null,
      title: typeof spec.title === 'string' ? spec.title : null,
      template: typeof spec.template === 'string' ? spec.template : null,
      repeat_interval: typeof spec.repeatInterval === 'string' ? spec.repeatInterval : null,
      properties: isObject(spec.properties) ? spec.properties : null,
      person_id: personId,
      team_id: teamId,
      custom_services: services.length > 0 ? services : null,
    };
    const problems = ruleBodyProblems(row, 'create').map((problem) => problem.replace(/^(\w+):/, 'spec.$1:'));
    if (problems.length > 0) throw new Error(`invalid ${NOTIFICATION_KIND}: ${problems.join('; ')}`);
    const { rows } = await pool.query<{ created: boolean }>(
      `WITH updated AS (
         UPDATE notifications SET events = $3, filter = $4, title = $5, template = $6, repeat_interval = $7,
                properties = $8, person_id = $9, team_id = $10, custom_services = $11, source = $12::source,
                error = NULL, error_at = NULL
          WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL RETURNING id)
       , inserted AS (
         INSERT INTO notifications (namespace, name, events, filter, title, template, repeat_interval, properties,
                                    person_id, team_id, custom_services, source, created_by)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::source, '00000000-0000-0000-0000-000000000001'
          WHERE NOT EXISTS (SELECT 1 FROM updated) RETURNING id)
       SELECT EXISTS (SELECT 1 FROM inserted) AS created`,
      [
        namespace,
        name,
        row.events,
        row.filter,
        row.title,
        row.template,
        row.repeat_interval,
        row.properties,
        row.person_id,
        row.team_id,
        row.custom_services === null ? null : JSON.stringify(row.custom_services),
        source,
      ],
    );
    return `notification ${namespace}/${name} ${rows[0]?.created ? 'created' : 'configured'}`;
  },
});
