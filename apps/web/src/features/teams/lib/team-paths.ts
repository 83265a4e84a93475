/** The list of teams (spec 3 section 2.6: `/settings/{table}`). */
export const TEAMS_PATH = '/settings/teams';

/** The id segment that opens an empty form to create a team. */
export const NEW_TEAM_ID = 'new';

/** A team's edit form (`/settings/{table}/{id}`); `tab` opens one of its sub-tabs. */
export const teamPath = (id: string, tab?: TeamTab): string =>
  `${TEAMS_PATH}/${encodeURIComponent(id)}${tab && tab !== 'spec' ? `?tab=${tab}` : ''}`;

/** The editor's sub-tabs (spec 2 section 2.8), as they appear in `?tab=`. */
export const TEAM_TABS = ['spec', 'members', 'job-history'] as const;
export type TeamTab = (typeof TEAM_TABS)[number];

/** The tab `?tab=` asks for; the Spec tab for anything else. */
export function teamTabOf(value: string | null): TeamTab {
  return (TEAM_TABS as readonly string[]).includes(value ?? '') ? (value as TeamTab) : 'spec';
}
