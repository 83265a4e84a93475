import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach } from 'vitest';

// Lazy route chunks load through dynamic imports; on a busy 2-core CI machine that can take
// longer than Testing Library's default 1 s wait.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  // Sonner keeps its toasts in module state: without this a toast raised by one test is shown
  // again when the next test mounts its Toaster, and a text the next test waits for is found twice.
  toast.dismiss();
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});
