import { PLAYBOOK_DEFAULTS } from '@lookout/contracts';

/** What a card needs (`playbook_names`, ui-calls section 3.7). */
export interface PlaybookName {
  id: string;
  name: string;
  title?: string | null | undefined;
  icon?: string | null | undefined;
  category?: string | null | undefined;
  description?: string | null | undefined;
}

/** A playbook's shown name: its title, else its name. */
export const playbookTitle = (playbook: { title?: string | null; name?: string | null }): string =>
  playbook.title?.trim() || playbook.name || '';

/**
 * Cards grouped by category (spec 2 section 2.1), 'Other' for those without one; groups by
 * name with 'Other' last, cards by title.
 */
export function groupByCategory<T extends PlaybookName>(
  playbooks: readonly T[],
): { category: string; playbooks: T[] }[] {
  const fallback = PLAYBOOK_DEFAULTS.category;
  const groups = new Map<string, T[]>();
  for (const playbook of playbooks) {
    const category = playbook.category?.trim() || fallback;
    const group = groups.get(category);
    if (group) group.push(playbook);
    else groups.set(category, [playbook]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === fallback ? 1 : b === fallback ? -1 : a.localeCompare(b)))
    .map(([category, members]) => ({
      category,
      playbooks: members.sort((a, b) => playbookTitle(a).localeCompare(playbookTitle(b))),
    }));
}
