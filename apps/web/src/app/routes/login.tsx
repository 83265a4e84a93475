import { LoginView } from '@/features/identity/components/login-view';

/** /login: Sign In, Two-Factor Authentication (?aal=aal2) and Confirm Action (?refresh=true). */
export function Component() {
  return <LoginView />;
}
