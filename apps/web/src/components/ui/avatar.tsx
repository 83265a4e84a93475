import { clsx } from 'clsx';
import { useState } from 'react';

export interface AvatarProps {
  /** The person's name: the image's alternative text, and the initials without an image. */
  name: string;
  /** Address of the person's picture, if any. */
  src?: string | null | undefined;
  className?: string;
}

/** Up to two initials of a name ('Ada Lovelace' → 'AL'); '?' for a blank one. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => [...(word ?? '')][0]?.toUpperCase() ?? '').join('') || '?';
}

/**
 * A person's round picture, or their initials when there is none or it fails to load.
 * Decorative next to the name it usually accompanies, so the initials are hidden from
 * assistive technology.
 */
export function Avatar({ name, src, className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const frame = clsx(
    'inline-flex size-6 shrink-0 items-center justify-center overflow-hidden rounded-full bg-slate-200 text-[10px] font-semibold text-slate-700',
    className,
  );
  if (src && !failed) {
    return <img src={src} alt="" className={clsx(frame, 'object-cover')} onError={() => setFailed(true)} />;
  }
  return (
    <span aria-hidden className={frame}>
      {initialsOf(name)}
    </span>
  );
}
