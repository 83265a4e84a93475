import { clsx } from 'clsx';
import { Users } from 'lucide-react';

/** An icon the browser can load itself: an address rather than an icon name. */
const isImageAddress = (icon: string) => /^(https?:\/\/|data:image\/|\/)/i.test(icon);

/**
 * A team's icon: the picture at its address when the icon is one, otherwise the group icon
 * (the default `group`, and names of icon sets the console does not ship).
 */
export function TeamIcon({ icon, className }: { icon: string | null | undefined; className?: string }) {
  if (icon && isImageAddress(icon)) {
    return <img src={icon} alt="" className={clsx('size-4 shrink-0 object-contain', className)} />;
  }
  return <Users aria-hidden className={clsx('size-4 shrink-0 text-slate-500', className)} />;
}
