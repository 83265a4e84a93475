/** How the rows of `pgrst_source` become the response body. */
export type BodyFormat =
  { kind: 'json' } | { kind: 'object'; stripNulls: boolean } | { kind: 'array'; stripNulls: boolean } | { kind: 'csv' };

/**
 * Aggregate expression over rows aliased `"_r"` producing the body text: a JSON array,
 * the single object of `application/vnd.pgrst.object+json` (its row count is checked by
 * the caller), or CSV with a header line (PostgreSQL's record text for each row, as
 * PostgREST does).
 */
export function bodySql(format: BodyFormat): string {
  switch (format.kind) {
    case 'json':
      return `coalesce(json_agg("_r"), '[]'::json)::text`;
    case 'array':
      return format.stripNulls
        ? `json_strip_nulls(coalesce(json_agg("_r"), '[]'::json))::text`
        : `coalesce(json_agg("_r"), '[]'::json)::text`;
    case 'object':
      return format.stripNulls ? `json_strip_nulls(json_agg("_r")->0)::text` : `(json_agg("_r")->0)::text`;
    case 'csv':
      return `(SELECT coalesce(string_agg("_k"."k", ','), '') FROM (SELECT json_object_keys(row_to_json("_h")) AS "k" FROM (SELECT * FROM "pgrst_source" LIMIT 1) AS "_h") AS "_k") || chr(10) || coalesce(string_agg(substring("_r"::text, 2, length("_r"::text) - 2), chr(10)), '')`;
  }
}
