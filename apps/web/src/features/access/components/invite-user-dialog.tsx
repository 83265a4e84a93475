import { zodResolver } from '@hookform/resolvers/zod';
import { USERS_PAGE_TEXTS, userFormSchema, userInvitedMessage } from '@lookout/contracts';
import type { InviteUserResponse, UserForm } from '@lookout/contracts';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-to-clipboard';
import { formClasses } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/format';
import { toastError } from '@/lib/api-client';
import { useInviteUser } from '../api/invite-user';
import { userDisplayName } from '../lib/user-fns';
import { UserFormFields } from './user-form-fields';

export interface InviteUserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** What the server answered, kept to show the invitation link. */
interface InviteOutcome {
  email: string;
  response: InviteUserResponse;
}

function InvitationLink({ outcome }: { outcome: InviteOutcome }) {
  const { link, expiresAt, message } = outcome.response;
  const linkId = useId();
  if (!link) {
    // An email that already had a user: their role was set instead (spec 1, section 4).
    return <p className="text-sm text-slate-700">{message}</p>;
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">
        {outcome.email} can now choose a password with the invitation link below
        {expiresAt ? `, valid until ${formatDateTime(expiresAt)}` : ''}. It was emailed to them when an email server
        (SMTP) is configured; without one, hand them the link yourself.
      </p>
      <div>
        <label htmlFor={linkId} className={formClasses.label}>
          Invitation link
        </label>
        <div className="mt-1 flex items-center gap-2">
          <input
            id={linkId}
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
            className={`${formClasses.control} font-mono text-xs`}
          />
          <CopyButton text={link} label="Copy invitation link" className="size-9 shrink-0" />
        </div>
      </div>
    </div>
  );
}

/**
 * The Invite User modal: firstName, lastName, email and role, validated with the spec's
 * messages. On success it toasts '{name} invited successfully', refreshes the list, and shows
 * the invitation link so the admin can hand it over when no email server is configured.
 */
export function InviteUserDialog({ open, onOpenChange }: InviteUserDialogProps) {
  const form = useForm<UserForm>({
    resolver: zodResolver(userFormSchema),
    defaultValues: { firstName: '', lastName: '', email: '' },
  });
  const invite = useInviteUser();
  const [outcome, setOutcome] = useState<InviteOutcome>();

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      form.reset();
      invite.reset();
      setOutcome(undefined);
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    invite.mutate(
      { firstName: values.firstName, lastName: values.lastName, email: values.email, role: values.role },
      {
        onSuccess: (response) => {
          toast.success(userInvitedMessage(userDisplayName(values.firstName, values.lastName, values.email)));
          setOutcome({ email: values.email, response });
        },
        onError: toastError,
      },
    );
  });

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={USERS_PAGE_TEXTS.invite}
      description={
        outcome
          ? undefined
          : 'They get a link to choose a password: emailed when an email server (SMTP) is configured, and shown here after the invite so you can hand it over.'
      }
    >
      {outcome ? (
        <>
          <InvitationLink outcome={outcome} />
          <ModalFooter>
            <Button onClick={() => close(false)}>Done</Button>
          </ModalFooter>
        </>
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)}>
          <UserFormFields form={form} disabled={invite.isPending} />
          <ModalFooter>
            <Button variant="secondary" onClick={() => close(false)} disabled={invite.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={invite.isPending}>
              {invite.isPending ? 'Inviting…' : 'Invite'}
            </Button>
          </ModalFooter>
        </form>
      )}
    </Modal>
  );
}
