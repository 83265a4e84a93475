import { Can } from '@/features/access/components/can';
import { EmailOutboxView } from '@/features/email-outbox/components/email-outbox-view';

/**
 * `/settings/email-outbox`: the emails Lookout sends (recovery and verification codes,
 * invitations). Their bodies sign people in, so the page needs write on identities (admins),
 * as the server's courier API does; anyone else sees the Unauthorized view.
 */
export function Component() {
  return (
    <Can resource="identities" action="write" showUnauthorized>
      <EmailOutboxView />
    </Can>
  );
}
