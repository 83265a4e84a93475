import { CircleUserRound } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import type { ReactNode } from 'react';
import { layoutClasses } from './layout-classes';

export interface UserMenuProps {
  /** The menu's entries; the app composes them from features (version line, identity). */
  children: ReactNode;
}

/** The account menu at the right end of the top bar. */
export function UserMenu({ children }: UserMenuProps) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger aria-label="User menu" title="User menu" className={layoutClasses.iconButton}>
        <CircleUserRound aria-hidden className="size-6" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className={layoutClasses.menuContent}>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
