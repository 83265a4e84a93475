import type pg from 'pg';

/** Marks a start of this installation (creating its record on the first one). */
export async function recordStart(pool: pg.Pool, version: string): Promise<{ id: string; firstStartedAt: Date }> {
  const result = await pool.query<{ id: string; first_started_at: Date }>(
    `INSERT INTO installation (last_version) VALUES ($1)
     ON CONFLICT (singleton) DO UPDATE SET last_started_at = now(), last_version = EXCLUDED.last_version
     RETURNING id, first_started_at`,
    [version],
  );
  const row = result.rows[0];
  if (!row) throw new Error('The installation record could not be written.');
  return { id: row.id, firstStartedAt: row.first_started_at };
}
