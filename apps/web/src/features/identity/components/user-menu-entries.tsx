import { IDENTITY_MESSAGES } from '@lookout/contracts';
import { LogOut, UserRound } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link, useLocation } from 'react-router';
import { layoutClasses } from '@/components/layout/layout-classes';
import { useCurrentUser } from '../hooks/use-current-user';
import { useSignOutAndGo } from '../hooks/use-sign-out-and-go';
import { loginPath } from '../lib/browser-location';

/** 'Hi {name}' at the top of the user menu (spec 1, section 2.3). */
export function UserGreeting() {
  const user = useCurrentUser();
  return (
    <DropdownMenu.Label className="truncate px-2 py-1.5 text-sm font-medium text-slate-900" title={user.email}>
      {IDENTITY_MESSAGES.greeting(user.name)}
    </DropdownMenu.Label>
  );
}

/** 'Your Profile', leading to /profile-settings. */
export function ProfileMenuItem() {
  return (
    <DropdownMenu.Item asChild className={layoutClasses.menuItem}>
      <Link to="/profile-settings">
        <UserRound aria-hidden className="size-4 text-slate-500" />
        {IDENTITY_MESSAGES.yourProfile}
      </Link>
    </DropdownMenu.Item>
  );
}

/**
 * 'Sign out': a logout token, then its use, then a full load of /login (which drops every
 * cached query); signing in again comes back to this page (spec 1, sections 2.3 and 4).
 */
export function SignOutMenuItem() {
  const location = useLocation();
  const target = loginPath({ returnTo: `${location.pathname}${location.search}` });
  const signOut = useSignOutAndGo(target);
  return (
    <DropdownMenu.Item
      className={layoutClasses.menuItem}
      disabled={signOut.isPending}
      onSelect={() => signOut.mutate()}
    >
      <LogOut aria-hidden className="size-4 text-slate-500" />
      {IDENTITY_MESSAGES.signOut}
    </DropdownMenu.Item>
  );
}
