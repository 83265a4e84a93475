-- Identity: the built-in, Ory Kratos-compatible identity service (spec 1 sections 2.6, 4;
-- ARCHITECTURE section 4). Secrets never sit here in clear text: passwords are argon2id
-- hashes, session/logout tokens and one-time codes are hashes, TOTP seeds and pending
-- backup codes are AES-GCM ciphertext under the installation's secret key.

-- An identity is a person who can sign in; its id is the people row's id.
CREATE TABLE identities (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  -- Kratos network id; one network per installation. The Users page reads it.
  nid uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  schema_id text NOT NULL DEFAULT 'default' CHECK (length(schema_id) BETWEEN 1 AND 100),
  traits jsonb NOT NULL CHECK (jsonb_typeof(traits) = 'object'),
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'inactive')),
  state_changed_at timestamptz NOT NULL DEFAULT now(),
  metadata_public jsonb,
  metadata_admin jsonb,
  external_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX identities_email_key ON identities (lower(traits ->> 'email'));
CREATE TRIGGER identities_touch BEFORE UPDATE ON identities FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- One credential of each type per identity: password, totp, lookup_secret, webauthn, oidc.
-- config holds what the method needs: {hashed_password}, {totp_secret_encrypted},
-- {lookup_secrets: [{hash, used_at}]}, {credentials: [...]}, {providers: [...]}.
CREATE TABLE identity_credentials (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('password', 'totp', 'lookup_secret', 'webauthn', 'oidc')),
  config jsonb NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (identity_id, type)
);
CREATE TRIGGER identity_credentials_touch BEFORE UPDATE ON identity_credentials FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- What a credential is found by: the email for a password, "provider:subject" for OIDC,
-- the WebAuthn user handle. Unique per credential type.
CREATE TABLE identity_credential_identifiers (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  identity_credential_id uuid NOT NULL REFERENCES identity_credentials (id) ON DELETE CASCADE,
  type text NOT NULL,
  identifier text NOT NULL CHECK (length(identifier) BETWEEN 1 AND 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (type, identifier)
);
CREATE INDEX identity_credential_identifiers_credential_idx ON identity_credential_identifiers (identity_credential_id);

CREATE TABLE identity_verifiable_addresses (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  via text NOT NULL DEFAULT 'email' CHECK (via IN ('email', 'sms')),
  value text NOT NULL CHECK (length(value) BETWEEN 1 AND 320),
  verified boolean NOT NULL DEFAULT false,
  verified_at timestamptz,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'completed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX identity_verifiable_addresses_value_key ON identity_verifiable_addresses (via, lower(value));
CREATE INDEX identity_verifiable_addresses_identity_idx ON identity_verifiable_addresses (identity_id);
CREATE TRIGGER identity_verifiable_addresses_touch BEFORE UPDATE ON identity_verifiable_addresses FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE TABLE identity_recovery_addresses (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  via text NOT NULL DEFAULT 'email' CHECK (via IN ('email', 'sms')),
  value text NOT NULL CHECK (length(value) BETWEEN 1 AND 320),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX identity_recovery_addresses_value_key ON identity_recovery_addresses (via, lower(value));
CREATE INDEX identity_recovery_addresses_identity_idx ON identity_recovery_addresses (identity_id);
CREATE TRIGGER identity_recovery_addresses_touch BEFORE UPDATE ON identity_recovery_addresses FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- A signed-in session. Only hashes of the session token and of the logout token are kept.
CREATE TABLE identity_sessions (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  logout_token_hash text UNIQUE,
  active boolean NOT NULL DEFAULT true,
  aal text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal0', 'aal1', 'aal2')),
  -- [{method, aal, completed_at, provider?}] in the order they were completed
  authentication_methods jsonb NOT NULL DEFAULT '[]',
  issued_at timestamptz NOT NULL DEFAULT now(),
  authenticated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_sessions_identity_idx ON identity_sessions (identity_id);
CREATE INDEX identity_sessions_expires_idx ON identity_sessions (expires_at);
CREATE TRIGGER identity_sessions_touch BEFORE UPDATE ON identity_sessions FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

CREATE TABLE identity_session_devices (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  session_id uuid NOT NULL REFERENCES identity_sessions (id) ON DELETE CASCADE,
  ip_address text,
  user_agent text,
  location text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_session_devices_session_idx ON identity_session_devices (session_id);

-- Self-service flows (login, registration, recovery, verification, settings). The ui is
-- rebuilt from this state on every read; only the messages are stored, so no secret shown
-- once (a new TOTP seed, new backup codes) is kept here in clear text.
CREATE TABLE identity_flows (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  kind text NOT NULL CHECK (kind IN ('login', 'registration', 'recovery', 'verification', 'settings')),
  type text NOT NULL CHECK (type IN ('browser', 'api')),
  state text NOT NULL,
  active text,
  request_url text NOT NULL,
  return_to text,
  csrf_token text,
  refresh boolean NOT NULL DEFAULT false,
  requested_aal text NOT NULL DEFAULT 'aal1',
  identity_id uuid REFERENCES identities (id) ON DELETE CASCADE,
  session_id uuid REFERENCES identity_sessions (id) ON DELETE SET NULL,
  -- {messages: UiText[], node_messages: {name: UiText[]}, values: {name: value}}
  ui_state jsonb NOT NULL DEFAULT '{}',
  -- Server-side only: recovery/verification address, pending encrypted TOTP seed,
  -- pending encrypted backup codes, WebAuthn challenges, OIDC state.
  internal jsonb NOT NULL DEFAULT '{}',
  issued_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_flows_expires_idx ON identity_flows (expires_at);
CREATE TRIGGER identity_flows_touch BEFORE UPDATE ON identity_flows FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- Errors a browser is sent to (/self-service/errors?id=).
CREATE TABLE identity_flow_errors (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  error jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One-time codes for recovery and verification; only an HMAC of the code is kept.
CREATE TABLE identity_codes (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  kind text NOT NULL CHECK (kind IN ('recovery', 'verification')),
  flow_id uuid NOT NULL REFERENCES identity_flows (id) ON DELETE CASCADE,
  identity_id uuid REFERENCES identities (id) ON DELETE CASCADE,
  address text NOT NULL,
  code_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_codes_flow_idx ON identity_codes (flow_id);

-- Emails sent for recovery and verification. The body carries a code, so it is not stored.
CREATE TABLE identity_courier_messages (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  type text NOT NULL DEFAULT 'email',
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'processing', 'abandoned')),
  template_type text NOT NULL,
  recipient text NOT NULL,
  subject text NOT NULL,
  send_count integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER identity_courier_messages_touch BEFORE UPDATE ON identity_courier_messages FOR EACH ROW EXECUTE FUNCTION lookout_touch_updated_at();

-- Fixed-window counters for rate limits (shared by every replica).
CREATE TABLE identity_rate_limits (
  bucket text NOT NULL,
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, key)
);

-- people mirrors identities (backend-model 1.5): same id, name = first + last, email.
CREATE OR REPLACE FUNCTION lookout_identity_to_person() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  person_name text;
  person_email text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE people SET deleted_at = now() WHERE id = OLD.id AND deleted_at IS NULL;
    RETURN OLD;
  END IF;
  person_email := NULLIF(btrim(NEW.traits ->> 'email'), '');
  person_name := NULLIF(btrim(concat_ws(' ',
    NULLIF(btrim(NEW.traits #>> '{name,first}'), ''),
    NULLIF(btrim(NEW.traits #>> '{name,last}'), ''))), '');
  person_name := left(COALESCE(person_name, person_email, 'Unknown'), 255);
  INSERT INTO people (id, name, email)
  VALUES (NEW.id, person_name, person_email)
  ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, deleted_at = NULL;
  RETURN NEW;
END;
$$;

CREATE TRIGGER identities_people_sync
AFTER INSERT OR UPDATE OF traits OR DELETE ON identities
FOR EACH ROW EXECUTE FUNCTION lookout_identity_to_person();
