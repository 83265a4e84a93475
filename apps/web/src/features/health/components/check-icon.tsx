import {
  Activity,
  BellRing,
  Database,
  Folder,
  Globe,
  Layers,
  type LucideIcon,
  Network,
  Radar,
  Server,
  SquareTerminal,
  Stethoscope,
} from 'lucide-react';

const TYPE_ICONS: Record<string, LucideIcon> = {
  http: Globe,
  tcp: Network,
  icmp: Radar,
  dns: Server,
  exec: SquareTerminal,
  postgres: Database,
  mysql: Database,
  redis: Database,
  folder: Folder,
  prometheus: Activity,
  alertmanager: BellRing,
};

export interface CheckIconProps {
  /** The check type (http, tcp, …) or 'group'. */
  type: string;
  className?: string;
}

/**
 * A check's icon, by type. Canary `icon` values name the original's icon set, which the
 * console does not ship, so the type decides; the icon name is kept in the spec.
 */
export function CheckIcon({ type, className = 'size-4 shrink-0 text-slate-500' }: CheckIconProps) {
  const Icon = type === 'group' ? Layers : (TYPE_ICONS[type] ?? Stethoscope);
  return <Icon aria-hidden className={className} />;
}
