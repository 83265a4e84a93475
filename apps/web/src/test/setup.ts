import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Lazy route chunks load through dynamic imports; on a busy 2-core CI machine that can take
// longer than Testing Library's default 1 s wait.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});
