-- Access tokens of kubeconfig files (GET /api/kubeconfig): the Kubernetes-compatible API at
-- /api/kubernetes accepts them as bearer tokens, with the roles its person has at each call.
-- Only a SHA-256 of the token is kept; deleting the row revokes it.
CREATE TABLE access_tokens (
  id uuid PRIMARY KEY DEFAULT lookout_uuid_v7(),
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  token_sha256 text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX access_tokens_person_idx ON access_tokens (person_id);
