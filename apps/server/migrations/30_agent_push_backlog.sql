-- How far behind an agent's pushes are, as the agent last reported it (push body or ping), so
-- the upstream's agents page can show the queue and the age of its oldest row.
ALTER TABLE agents
  ADD COLUMN push_queue_length integer CHECK (push_queue_length IS NULL OR push_queue_length >= 0),
  ADD COLUMN push_oldest_unpushed_at timestamptz;
