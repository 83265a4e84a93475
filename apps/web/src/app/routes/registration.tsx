import { RegistrationView } from '@/features/identity/components/registration-view';

/** /registration: 'Create account'. */
export function Component() {
  return <RegistrationView />;
}
