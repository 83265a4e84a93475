-- Health: the refreshed last hour keeps the sum and count of its runs' durations, so the summary
-- can answer `latency.rolling1h` (the mean latency over its range) from it as from the raw rows
-- and the roll-ups (which keep `duration` sums and `total` already). Issue 20 item 11;
-- reference/ui-calls.md section 3.3. Rows written before this are replaced by the next refresh.
ALTER TABLE check_status_summary_1h
  ADD COLUMN duration bigint NOT NULL DEFAULT 0,
  ADD COLUMN timed integer NOT NULL DEFAULT 0;
