import { BadSessionView } from '@/features/identity/components/bad-session-view';

/** /bad-session?error_code=: the Bad session page. */
export function Component() {
  return <BadSessionView />;
}
