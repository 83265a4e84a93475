import { z } from 'zod';
import { VALIDATION_MESSAGES } from './messages.js';
import { SETTINGS_RESOURCE_TOASTS } from './settings-resources.js';

/**
 * Teams (spec 2 sections 2.8, 3, 7.1 and 8; spec 3 section 2.6): the texts of the Teams
 * settings pages and the rows the console reads through `/api/db` (ui-calls sections 3.10 and
 * 3.14). The server checks what is written (migration 15); these schemas bound what is read
 * and what the form sends.
 */

/** Labels of the Teams pages. Spec wording where it has one; the rest is ours. */
export const TEAMS_PAGE_TEXTS = {
  title: 'Teams',
  titleNew: 'New Team',
  add: 'Add Team',
  columns: {
    name: 'Name',
    source: 'Source',
    members: 'Members',
    createdAt: 'Created',
    updatedAt: 'Updated',
    createdBy: 'Created By',
  },
  /** spec 2 section 2.8: the editor's sub-tabs for teams. */
  tabs: { spec: 'Spec', members: 'Members', jobHistory: 'Job History' },
  fields: { name: 'Name', icon: 'Icon', spec: 'Spec' },
  specHint: "The team's settings as YAML or JSON, for example the notification channels of its members.",
  /** spec 3 section 2.6: an edit form for an id that matches no team. */
  notFound: 'No resources found',
  /** spec 2 section 4: create when no id exists, update when one does. */
  save: 'Save',
  saving: 'Saving',
  update: 'Update',
  updating: 'Updating',
  cancel: 'Cancel',
  delete: 'Delete',
  deleteConfirm: (name: string) => `Are you sure you want to delete the team ${name} ?`,
  /** spec 3 section 5: rows whose source is not the UI cannot be edited in the UI. */
  readOnly: (source: string) => `This team comes from ${source} and is read-only here.`,
  secretsMasked: 'Passwords, tokens and other credentials show as *** here: only roles that can change teams see them.',
  invalidSpec: 'The spec cannot be read',
  specNotObject: 'The spec must be a set of settings (key: value), not a list or a single value.',
} as const;

/** The Members tab and its modal (spec 2 section 2.8). */
export const TEAM_MEMBERS_TEXTS = {
  addMembers: 'Add Members',
  modalTitle: 'Add users to the team',
  usersLabel: 'Users',
  add: 'Add',
  adding: 'Adding',
  cancel: 'Cancel',
  removeUser: 'Remove user',
  removeConfirm: (name: string, team: string) => `Are you sure you want to remove ${name} from the team ${team} ?`,
  remove: 'Remove',
  empty: "You haven't added any team members to the team yet.",
  noCandidates: 'Every user is already a member of this team.',
  columns: { name: 'Name', email: 'Email' },
} as const;

/** spec 2 section 8: success toasts of the Teams pages. */
export const TEAM_TOASTS = {
  ...SETTINGS_RESOURCE_TOASTS,
  memberRemoved: (name: string) => `${name} removed from team successfully`,
  membersAdded: (names: readonly string[]) => `${names.join(', ')} added to the team successfully`,
} as const;

/** spec 2 section 3.1 / ui-calls 3.14: a team's icon when the form leaves it as it is. */
export const TEAM_DEFAULT_ICON = 'group';

/** Bounds of the team columns (migration 2 and 15). */
export const TEAM_LIMITS = { name: 255, icon: 100, specText: 100_000 } as const;

const isoTime = z.string().max(40);
const text = (max: number) => z.string().max(max);
/** A JSON object (a team's spec). */
const jsonObject = z.record(z.string(), z.json());

/** A person as the console embeds one (`created_by(id,name,avatar,email)`, `person_id(*)`). */
export const teamPersonSchema = z.object({
  id: z.uuid(),
  name: text(255),
  email: text(320).nullable().optional(),
  avatar: text(2000).nullable().optional(),
  deleted_at: isoTime.nullable().optional(),
});
export type TeamPerson = z.infer<typeof teamPersonSchema>;

/** The embed of a team row's author. */
export const TEAM_CREATED_BY_SELECT = 'created_by(id,name,avatar,email)';

/** `GET /api/db/teams?id=eq.{id}`: the team the form edits. */
export const teamRowSchema = z.object({
  id: z.uuid(),
  name: text(TEAM_LIMITS.name),
  icon: text(2000).nullable(),
  spec: jsonObject.nullable(),
  source: text(64),
  created_by: z.uuid(),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
});
export type TeamRow = z.infer<typeof teamRowSchema>;

/**
 * `GET /api/db/teams_with_status?select=*,` {@link TEAM_CREATED_BY_SELECT}
 * `&deleted_at=is.null&order=created_at.desc&limit=100`: the Teams list.
 */
export const teamListRowSchema = teamRowSchema.extend({
  created_by: teamPersonSchema.nullable(),
  members_count: z.number().int().nonnegative().nullable(),
});
export type TeamListRow = z.infer<typeof teamListRowSchema>;

/** `GET /api/db/team_members?team_id=eq.{id}&select=*,person_id(*)`: a member and their person. */
export const teamMemberRowSchema = z.object({
  team_id: z.uuid(),
  person_id: teamPersonSchema,
  source: text(64),
});
export type TeamMemberRow = z.infer<typeof teamMemberRowSchema>;

/**
 * The team form. `spec` is the editor's text (YAML or JSON); the web reads it into an object
 * before saving, and says so when it cannot.
 */
export const teamFormSchema = z.object({
  name: z
    .string({ message: VALIDATION_MESSAGES.required })
    .trim()
    .min(1, { message: VALIDATION_MESSAGES.required })
    .max(TEAM_LIMITS.name, { message: `must be at most ${TEAM_LIMITS.name} characters` }),
  icon: z
    .string()
    .trim()
    .max(TEAM_LIMITS.icon, { message: `must be at most ${TEAM_LIMITS.icon} characters` }),
  spec: z.string().max(TEAM_LIMITS.specText, { message: `must be at most ${TEAM_LIMITS.specText} characters` }),
});
export type TeamForm = z.infer<typeof teamFormSchema>;
