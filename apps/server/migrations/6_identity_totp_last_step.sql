-- Identity: a TOTP code is accepted at most once. The time step (the 30-second counter) of
-- the last code accepted for a TOTP credential is kept on the credential; a code whose step
-- is not later than it is refused, so a code seen over someone's shoulder or replayed from
-- a captured request is useless once used. Other credential types leave it NULL.
ALTER TABLE identity_credentials
  ADD COLUMN totp_last_step bigint CHECK (totp_last_step IS NULL OR (type = 'totp' AND totp_last_step >= 0));
