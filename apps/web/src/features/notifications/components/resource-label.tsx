import { NOTIFICATION_HISTORY_RESOURCE_LABELS, type NotificationResourceType } from '@lookout/contracts';
import { Link } from 'react-router';
import { MISSING_VALUE } from '@/lib/format';

/** Where a resource opens, or undefined when this build has no page for its type. */
export type NotificationResourceHref = (type: NotificationResourceType, id: string) => string | undefined;

export interface ResourceLabelProps {
  type: NotificationResourceType | null;
  id: string | null;
  name: string | null | undefined;
  resourceHref?: NotificationResourceHref | undefined;
}

/** A resource as the notification pages show it: its type, then its name (a link where it has a page). */
export function ResourceLabel({ type, id, name, resourceHref }: ResourceLabelProps) {
  const label = name ?? id ?? MISSING_VALUE;
  const href = type && id ? resourceHref?.(type, id) : undefined;
  return (
    <span className="flex max-w-72 min-w-0 flex-col">
      {type && <span className="text-xs text-slate-500">{NOTIFICATION_HISTORY_RESOURCE_LABELS[type] ?? type}</span>}
      {href ? (
        <Link
          to={href}
          // Inside a clickable row the link opens the resource, not the row's details.
          onClick={(event) => event.stopPropagation()}
          title={label}
          className="truncate text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600"
        >
          {label}
        </Link>
      ) : (
        <span className="truncate" title={label}>
          {label}
        </span>
      )}
    </span>
  );
}
