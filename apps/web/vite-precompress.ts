import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Files that shrink when compressed. Source maps are left out: only developer tools fetch them. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Smaller files gain nothing worth a second file. */
const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes `file.br` and `file.gz` beside `file` when they are smaller than it. */
async function precompressFile(file: string): Promise<void> {
  const body = await readFile(file);
  if (body.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([
    br.length < body.length ? writeFile(`${file}.br`, br) : undefined,
    gz.length < body.length ? writeFile(`${file}.gz`, gz) : undefined,
  ]);
}

/**
 * Compresses the finished build once, with brotli at its highest quality and gzip at level 9,
 * into `.br` and `.gz` files beside each text file of the output. The server sends them as
 * they are to browsers that accept them (`apps/server/src/http/web-app.ts`, `preCompressed`),
 * so assets travel compressed with no work per request. Build only.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'lookout:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files: string[] = [];
      for await (const file of filesUnder(outDir)) if (COMPRESSIBLE.test(file)) files.push(file);
      await Promise.all(files.map(precompressFile));
    },
  };
}
