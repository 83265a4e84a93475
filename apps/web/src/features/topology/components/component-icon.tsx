import {
  Box,
  Boxes,
  Cloud,
  Cpu,
  Database,
  Globe,
  HardDrive,
  type LucideIcon,
  MemoryStick,
  Network,
  Server,
  Workflow,
} from 'lucide-react';

/**
 * Icon names of topology documents point at the original's icon set, which the console does
 * not ship; the common ones map to a near equivalent, anything else shows a box.
 */
const ICONS: [RegExp, LucideIcon][] = [
  [/postgres|mysql|sql|database|db|redis|mongo/i, Database],
  [/kubernetes|k8s|cluster|namespace|pod/i, Boxes],
  [/server|node|host|vm|ec2/i, Server],
  [/http|web|url|api|ingress/i, Globe],
  [/network|dns|vpc|subnet/i, Network],
  [/cloud|aws|azure|gcp/i, Cloud],
  [/disk|volume|storage|s3|bucket/i, HardDrive],
  [/cpu/i, Cpu],
  [/memory|mem/i, MemoryStick],
  [/job|queue|workflow|lookout/i, Workflow],
];

export function iconFor(name: string | null | undefined): LucideIcon {
  if (!name) return Box;
  return ICONS.find(([pattern]) => pattern.test(name))?.[1] ?? Box;
}

/** A component's icon by its icon name, else its type. */
export function ComponentIcon({
  icon,
  type,
  className = 'size-5 shrink-0 text-slate-500',
}: {
  icon?: string | null | undefined;
  type?: string | null | undefined;
  className?: string;
}) {
  const Icon = iconFor(icon || type);
  return <Icon aria-hidden className={className} />;
}
