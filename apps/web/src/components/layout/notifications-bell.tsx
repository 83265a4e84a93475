import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { layoutClasses } from './layout-classes';

export interface NotificationsBellProps {
  path: string;
  label: string;
}

/** The top bar's shortcut to the notifications area. */
export function NotificationsBell({ path, label }: NotificationsBellProps) {
  return (
    <Link to={path} aria-label={label} title={label} className={layoutClasses.iconButton}>
      <Bell aria-hidden className="size-5" />
    </Link>
  );
}
