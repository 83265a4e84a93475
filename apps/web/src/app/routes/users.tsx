import { UsersView } from '@/features/access/components/users-view';

/** `/settings/users`: user administration (spec 1, section 2.5). */
export function Component() {
  return <UsersView />;
}
