import { TOAST_DURATION_MS } from '@lookout/contracts';
import { Toaster as SonnerToaster, toast as sonnerToast } from 'sonner';

/**
 * Toasts open below the top bar (56 px high, plus a gap), so one never covers the refresh
 * button or the user menu while it is on screen.
 */
const TOASTER_OFFSET = { top: 64, right: 16 } as const;

/** Mount once at the root; every toast in the app lasts the spec's 5 s. */
export function Toaster() {
  return (
    <SonnerToaster
      position="top-right"
      offset={TOASTER_OFFSET}
      mobileOffset={TOASTER_OFFSET}
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
    />
  );
}

/** The one way features raise a toast, so duration and look stay uniform. */
export const toast = {
  success: (message: string) => sonnerToast.success(message, { duration: TOAST_DURATION_MS }),
  error: (message: string) => sonnerToast.error(message, { duration: TOAST_DURATION_MS }),
  info: (message: string) => sonnerToast(message, { duration: TOAST_DURATION_MS }),
};
