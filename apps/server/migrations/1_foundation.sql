-- Foundation: helpers every later migration relies on, and the installation record.

-- Time-ordered UUIDs (RFC 9562 version 7) keep primary-key indexes append-mostly.
-- PostgreSQL 18 ships uuidv7(); Lookout supports 15 and newer, so it defines its own.
CREATE OR REPLACE FUNCTION lookout_uuid_v7() RETURNS uuid
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  unix_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  -- gen_random_uuid() is built in since PostgreSQL 13: its bytes are random apart from
  -- the version and variant bits, which are overwritten below.
  bytes bytea := uuid_send(gen_random_uuid());
BEGIN
  bytes := set_byte(bytes, 0, ((unix_ms >> 40) & 255)::int);
  bytes := set_byte(bytes, 1, ((unix_ms >> 32) & 255)::int);
  bytes := set_byte(bytes, 2, ((unix_ms >> 24) & 255)::int);
  bytes := set_byte(bytes, 3, ((unix_ms >> 16) & 255)::int);
  bytes := set_byte(bytes, 4, ((unix_ms >> 8) & 255)::int);
  bytes := set_byte(bytes, 5, (unix_ms & 255)::int);
  -- version 7 in the high nibble of byte 6, RFC variant in the top bits of byte 8
  bytes := set_byte(bytes, 6, (get_byte(bytes, 6) & 15) | 112);
  bytes := set_byte(bytes, 8, (get_byte(bytes, 8) & 63) | 128);
  RETURN encode(bytes, 'hex')::uuid;
END;
$$;

-- One row describing this Lookout installation. The id lets logs and support requests
-- tell installations apart; first_started_at shows that data survived restarts.
CREATE TABLE installation (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id uuid NOT NULL DEFAULT lookout_uuid_v7(),
  first_started_at timestamptz NOT NULL DEFAULT now(),
  last_started_at timestamptz NOT NULL DEFAULT now(),
  last_version text NOT NULL
);
