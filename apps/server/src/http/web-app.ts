import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from './error-envelope.js';

/** Where `npm run build` puts the web app, relative to this file in `src/` or `dist/`. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * Serves the built single-page app. Any GET that is not an API call and not a file gets
 * index.html, so deep links such as /health/checks reach the client-side router (which shows
 * the console's not-found page for an unknown one). Paths under /api never fall back to the
 * page: an unknown API path is a 404 in the error envelope. Every unknown path is answered
 * once, by the not-found handler below, which never hands the request back to Fastify's
 * not-found handling (that would log "Trying to send a NotFound error inside a 404 handler"
 * and answer a bare 404).
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const indexFile = path.join(webDir, 'index.html');
  const hasWebApp = existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      // Look files up per request: a rebuilt web app (new fingerprinted assets) is served
      // without a restart. Misses fall through to the not-found handler below.
      wildcard: true,
      index: false,
      // The web build writes a .br and a .gz beside each asset (apps/web/vite-precompress.ts):
      // they are sent as they are to browsers that accept them, with no work per request.
      preCompressed: true,
      // A directory (`/` above all) would answer 403 without an index; pass it to the
      // not-found handler below, which answers with the page.
      allowedPath: (pathName) => !pathName.endsWith('/'),
      // Cache headers are ours (below): the plugin's default would mark every file max-age=0.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Vite fingerprints everything under assets/, so those files never change.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The body depends on Accept-Encoding (a precompressed file, or the plain one).
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  } else {
    app.log.warn({ webDir }, 'The web app is not built; only the API is served. Run `npm run build`.');
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    if (isApi || !['GET', 'HEAD'].includes(request.method)) {
      return reply.status(404).send(errorEnvelope('not_found', `No API route matches ${request.method} ${pathname}.`));
    }
    // A missing file (a stale asset name, a typo) is a real 404, not the page.
    if (path.extname(pathname) !== '') {
      return reply.status(404).type('text/plain; charset=utf-8').send(`No file at ${pathname}.`);
    }
    if (!hasWebApp) {
      return reply
        .status(404)
        .type('text/plain; charset=utf-8')
        .send('The Lookout web app has not been built. Run `npm run build`, then restart the server.');
    }
    // Read here rather than with reply.sendFile: a missing index.html (a rebuild in progress)
    // would make sendFile call the not-found handler again from inside itself.
    let page: Buffer;
    try {
      page = await readFile(indexFile);
    } catch {
      return reply
        .status(503)
        .header('Retry-After', '5')
        .type('text/plain; charset=utf-8')
        .send(`The Lookout web app is missing from ${webDir} (being rebuilt?). Run \`npm run build\`, then reload.`);
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
}
