-- Every replica on one database must use the same secret key (LOOKOUT_SECRET_KEY): it keys
-- one-time codes and backup codes and encrypts TOTP seeds, so a code issued by one replica is
-- refused by a replica with another key, and seeds it stored do not decrypt there. The first
-- server to start records a fingerprint of its key here; a server whose key gives another
-- fingerprint stops at start-up with a message naming LOOKOUT_SECRET_KEY
-- (identity-secret-key.ts, docs/identity.md).
--
-- The fingerprint is an HMAC-SHA256 of a fixed label under a key derived from the secret key
-- (HKDF, its own label): it tells two keys apart but reveals nothing of the key, and it is not
-- any key the identity service encrypts or hashes with.
CREATE TABLE identity_secret_key (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  fingerprint text NOT NULL CHECK (length(fingerprint) BETWEEN 20 AND 200),
  recorded_at timestamptz NOT NULL DEFAULT now()
);
