import { z } from 'zod';
import { NOTIFICATION_EVENTS } from './notifications.js';

/**
 * The `spec` of a `kind: Notification` document as people write it (the original's CRD shape,
 * read by the notifications module's applier and /api/db guard). It only describes the spec for
 * editors (`/api/schemas/notification.spec.schema.json`): the notifications module's own checks
 * (a filter that compiles, a recipient that exists) stay the last word.
 */
export const notificationSpecSchema = z.looseObject({
  events: z.array(z.enum(NOTIFICATION_EVENTS)).min(1).describe('The events that send this notification.'),
  filter: z.string().optional().describe('A CEL expression over the event; the notification is sent when it is true.'),
  title: z.string().optional().describe('The message title (a template).'),
  template: z.string().optional().describe('The message body (a template).'),
  repeatInterval: z
    .string()
    .optional()
    .describe('Do not send again for the same resource within this interval, e.g. 1h.'),
  to: z
    .looseObject({
      person: z.string().optional().describe('A person id or email.'),
      team: z.string().optional().describe('A team id or name.'),
      connection: z.string().optional().describe('connection://namespace/name'),
      url: z.string().optional().describe('A notification service URL (slack://, smtp://, generic+https://, ...).'),
      properties: z.record(z.string(), z.string()).optional(),
    })
    .describe('The one recipient: a person, a team, a connection or a service URL.'),
  properties: z.record(z.string(), z.string()).optional(),
});
