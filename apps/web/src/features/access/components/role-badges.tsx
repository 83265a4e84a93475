import { effectiveRoles } from '@lookout/contracts';
import type { Role } from '@lookout/contracts';
import { clsx } from 'clsx';

const ROLE_CLASSES: Record<Role, string> = {
  admin: 'bg-violet-50 text-violet-700 ring-violet-200',
  editor: 'bg-sky-50 text-sky-700 ring-sky-200',
  commander: 'bg-amber-50 text-amber-800 ring-amber-200',
  responder: 'bg-orange-50 text-orange-800 ring-orange-200',
  viewer: 'bg-slate-50 text-slate-700 ring-slate-200',
};

/** A person's roles as badges; no role at all shows as viewer, which is what it means. */
export function RoleBadges({ roles }: { roles: readonly Role[] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {effectiveRoles(roles).map((role) => (
        <span
          key={role}
          className={clsx('rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', ROLE_CLASSES[role])}
        >
          {role}
        </span>
      ))}
    </span>
  );
}
