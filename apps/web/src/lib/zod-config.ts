import { z } from 'zod';

// Zod compiles object parsers with `new Function` unless told not to, and finds out whether it
// may by trying once: under the console's Content-Security-Policy (no 'unsafe-eval') that try
// is reported as a violation even though Zod catches it. Jitless parsing needs no eval. Zod
// decides when a schema is created, so this module runs before any other (first import of
// main.tsx).
z.config({ jitless: true });
