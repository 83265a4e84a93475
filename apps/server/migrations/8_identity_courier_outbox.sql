-- The courier's outbox (issue 20 item 6; docs/identity.md, Email). Every email Lookout sends
-- (recovery and verification codes, invitations) is written here in the flow that asks for it,
-- then delivered by the courier sender (identity-courier-sender.ts) when LOOKOUT_SMTP_URL is
-- set, with retries. Without SMTP it stays queued, for an admin to read in the console
-- (Settings > Email outbox); nothing of it goes to the log. The shape is Kratos's
-- courier_messages and courier_message_dispatches, which GET /api/.ory/admin/courier/messages
-- answers with.

-- The body carries a code or a one-time link, so it is kept sealed (AES-256-GCM with the
-- identity service's secret key, as TOTP seeds are): a reader of the database alone learns
-- no code. Rows written before this migration never kept a body.
ALTER TABLE identity_courier_messages
  ADD COLUMN body_encrypted text,
  ADD COLUMN channel text NOT NULL DEFAULT 'email',
  -- When the sender may next try the message; NULL once it is sent or abandoned.
  ADD COLUMN next_attempt_at timestamptz,
  -- The sender that holds the message (status processing) and until when: a sender that dies
  -- mid-way leaves the message to be claimed again once the lease ends.
  ADD COLUMN claimed_by text,
  ADD COLUMN claimed_until timestamptz;

-- The old courier sent at once or gave up; a message it left queued had no body to send.
UPDATE identity_courier_messages
   SET status = 'abandoned', last_error = coalesce(last_error, 'Queued before the outbox kept message bodies.')
 WHERE status IN ('queued', 'processing');

ALTER TABLE identity_courier_messages
  ADD CONSTRAINT identity_courier_messages_body_kept
    CHECK (status NOT IN ('queued', 'processing') OR body_encrypted IS NOT NULL),
  ADD CONSTRAINT identity_courier_messages_due_when_queued
    CHECK (status NOT IN ('queued', 'processing') OR next_attempt_at IS NOT NULL),
  ADD CONSTRAINT identity_courier_messages_channel_email CHECK (channel = 'email' AND type = 'email');

ALTER TABLE identity_courier_messages ALTER COLUMN next_attempt_at SET DEFAULT now();

-- What the sender claims (due first). The outbox lists newest first by id (time-ordered
-- UUID v7, the primary key), optionally for one recipient.
CREATE INDEX identity_courier_messages_due_idx ON identity_courier_messages (next_attempt_at)
  WHERE status IN ('queued', 'processing');
CREATE INDEX identity_courier_messages_recipient_idx ON identity_courier_messages (recipient, id DESC);

-- One row per delivery attempt (Kratos's message dispatches): success, or failed with the
-- reason. The message's last_error repeats the latest reason.
CREATE TABLE identity_courier_message_dispatches (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  message_id uuid NOT NULL REFERENCES identity_courier_messages (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('failed', 'success')),
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_courier_message_dispatches_message_idx
  ON identity_courier_message_dispatches (message_id, created_at);

-- Wakes the senders of every replica when mail is queued (delivered at commit); they also
-- poll, so a lost notification only delays a message.
CREATE OR REPLACE FUNCTION lookout_courier_message_queued() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lookout_courier_queued', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER identity_courier_messages_queued
  AFTER INSERT ON identity_courier_messages
  FOR EACH STATEMENT EXECUTE FUNCTION lookout_courier_message_queued();
