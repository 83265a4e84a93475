import { effectiveRoles } from '@lookout/contracts';
import type { Role } from '@lookout/contracts';

/**
 * True when the person is nothing more than a viewer (the role `viewer`, or no role at all).
 * The Settings submenu is hidden for them (spec 1, section 2.2). Commanders and responders
 * read the same set as a viewer but are not viewers: they keep the menu and see in it the
 * items they may read.
 */
export function isViewerOnly(roles: readonly Role[]): boolean {
  return effectiveRoles(roles).every((role) => role === 'viewer');
}
