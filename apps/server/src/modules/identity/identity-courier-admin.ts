import {
  COURIER_PAGE_SIZE,
  EMAIL_DELIVERY_HEADER,
  type CourierMessage,
  type CourierMessagesQuery,
  type EmailDelivery,
} from '@lookout/contracts';
import { decodePageToken, encodePageToken, messageView } from './identity-courier-fns.js';
import type { CourierDispatchRow, CourierMessageRow, CourierRepository } from './identity-courier-repository.js';
import type { SecretBox } from './identity-crypto.js';
import type { RequestContext } from './identity-types.js';
import { errors } from './kratos-errors-fns.js';

/**
 * Kratos's admin courier API over the outbox: `GET /admin/courier/messages` (filters `status`
 * and `recipient`, keyset paging with `page_size`, `page_token`, the `Link` and
 * `X-Total-Count` headers, newest first) and `GET /admin/courier/messages/{id}`, each message
 * with its delivery attempts. Kratos shows bodies only in its development mode; Lookout shows
 * them to admins (the routes need write on identities), because without SMTP the outbox is
 * how a code or an invitation reaches its recipient at all.
 */

/** What a body that cannot be shown says instead. */
const UNREADABLE_BODY = {
  notKept: '[Lookout did not keep the text of this message: it was queued before the email outbox existed.]',
  keyChanged: '[This message cannot be opened: LOOKOUT_SECRET_KEY changed since it was queued.]',
} as const;

export type CourierAdminDeps = {
  repository: Pick<CourierRepository, 'listMessages' | 'findMessage' | 'listDispatches'>;
  box: Pick<SecretBox, 'decrypt'>;
  /** `smtp` when LOOKOUT_SMTP_URL is set, else `outbox`: said in a header of the list. */
  delivery: EmailDelivery;
};

export type CourierAdmin = ReturnType<typeof createCourierAdmin>;

export function createCourierAdmin({ repository, box, delivery }: CourierAdminDeps) {
  function openBody(row: CourierMessageRow): string {
    if (row.body_encrypted === null) return UNREADABLE_BODY.notKept;
    try {
      return box.decrypt(row.body_encrypted);
    } catch {
      return UNREADABLE_BODY.keyChanged;
    }
  }

  async function views(rows: readonly CourierMessageRow[]): Promise<CourierMessage[]> {
    const dispatches = await repository.listDispatches(rows.map((row) => row.id));
    const byMessage = new Map<string, CourierDispatchRow[]>();
    for (const dispatch of dispatches) {
      const list = byMessage.get(dispatch.message_id) ?? [];
      list.push(dispatch);
      byMessage.set(dispatch.message_id, list);
    }
    return rows.map((row) => messageView(row, openBody(row), byMessage.get(row.id) ?? []));
  }

  return {
    async list(query: CourierMessagesQuery, ctx: Pick<RequestContext, 'baseUrl'>) {
      const limit = query.page_size ?? COURIER_PAGE_SIZE.default;
      let beforeId: string | undefined;
      if (query.page_token !== undefined) {
        beforeId = decodePageToken(query.page_token);
        if (!beforeId) {
          throw errors.badRequest(
            'The page_token is malformed: use the rel="next" link of the previous page, or leave it out for the first page.',
          );
        }
      }
      const { rows, total } = await repository.listMessages({
        limit: limit + 1,
        ...(query.status ? { status: query.status } : {}),
        ...(query.recipient ? { recipient: query.recipient } : {}),
        ...(beforeId ? { beforeId } : {}),
      });
      const page = rows.slice(0, limit);
      const filters = new URLSearchParams({ page_size: String(limit) });
      if (query.status) filters.set('status', query.status);
      if (query.recipient) filters.set('recipient', query.recipient);
      const url = (extra: Record<string, string> = {}) =>
        `${ctx.baseUrl}/admin/courier/messages?${new URLSearchParams({ ...Object.fromEntries(filters), ...extra }).toString()}`;
      const links = [`<${url()}>; rel="first"`];
      const last = page[page.length - 1];
      if (rows.length > limit && last) links.push(`<${url({ page_token: encodePageToken(last.id) })}>; rel="next"`);
      return {
        status: 200,
        body: await views(page),
        headers: { link: links.join(','), 'x-total-count': String(total), [EMAIL_DELIVERY_HEADER]: delivery },
      };
    },

    async get(id: string) {
      const row = await repository.findMessage(id);
      if (!row) throw errors.notFound(`No courier message with id '${id}'.`);
      const [message] = await views([row]);
      return { status: 200, body: message };
    },
  };
}
