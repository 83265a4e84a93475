import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScrapeConfigSpec } from '@lookout/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { outsideRoots } from '../../../files/allowed-roots.js';
import { scrapeFiles } from './file-scraper.js';
import { scrapeKubernetesFiles } from './kubernetes-file-scraper.js';
import { OutsideScrapeRootsError, SCRAPE_ROOTS_RULE, scrapeSpecRootProblems } from './scrape-file-roots.js';

/*
 * The directories file and kubernetesFile scrapers may read (LOOKOUT_SCRAPE_FILE_ROOTS), on real
 * files: a root holding manifests, a sibling whose name begins like the root's, a secret
 * outside, and links from inside out.
 */
const base = realpathSync(mkdtempSync(join(tmpdir(), 'lookout-scrape-roots-')));
const root = join(base, 'catalog');
const sibling = join(base, 'catalog2');
const outside = join(base, 'secret');
mkdirSync(join(root, 'apps'), { recursive: true });
mkdirSync(sibling);
mkdirSync(outside);
writeFileSync(join(root, 'apps', 'shop.yaml'), 'name: shop\n');
writeFileSync(join(sibling, 'other.yaml'), 'name: other\n');
writeFileSync(join(outside, 'key.yaml'), 'secret: the secret\n');
// A link inside the root to a file inside is fine; one to the secret is not.
symlinkSync(join(root, 'apps', 'shop.yaml'), join(root, 'current.yaml'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const roots = [root];
const setting = `LOOKOUT_SCRAPE_FILE_ROOTS=${root}`;
const outsideOf = (what: string) => outsideRoots(what, roots, SCRAPE_ROOTS_RULE);

/** The error a promise rejects with (it must reject). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutsideScrapeRootsError);
  return error as Error;
}

describe('checks on save', () => {
  it('accepts host paths under a root, and leaves the paths of a git repository to the checkout', async () => {
    const spec: ScrapeConfigSpec = {
      file: [
        { type: 'App', paths: [join(root, '**', '*.yaml'), join(root, 'apps', 'shop.yaml')] },
        { type: 'Repo', url: 'https://git.example.com/ops.git', paths: ['/etc/*.yaml'] },
        { type: 'Repo', connection: 'connection://ops/git', paths: ['deploy/*.yaml'] },
      ],
      kubernetesFile: [{ files: [{ path: [join(root, 'apps', '*.yaml')] }] }],
    };
    expect(await scrapeSpecRootProblems(spec, roots)).toEqual([]);
    expect(await scrapeSpecRootProblems({ http: [{ type: 'H', url: 'http://x' }] }, roots)).toEqual([]);
  });

  it('names each host path outside every root by its field, with the setting and how to allow it', async () => {
    const spec: ScrapeConfigSpec = {
      file: [
        { type: 'Ok', paths: [join(root, '*.yaml')] },
        { type: 'Bad', paths: [join(root, 'a.yaml'), '/etc/shadow', join(sibling, '*.yaml'), `${root}/../secret/*`] },
      ],
      kubernetesFile: [{ files: [{ path: ['/var/lib/lookout/*.yaml'] }, { path: [`${root}/*/../../secret/*`] }] }],
    };
    expect(await scrapeSpecRootProblems(spec, roots)).toEqual([
      `spec.file[1].paths[1]: /etc/shadow is outside the directories file scrapers may read (${setting}); add its directory there to allow it`,
      `spec.file[1].paths[2]: ${outsideOf(join(sibling, '*.yaml'))}`,
      `spec.file[1].paths[3]: ${outsideOf(`${root}/../secret/*`)}`,
      `spec.kubernetesFile[0].files[0].path[0]: ${outsideOf('/var/lib/lookout/*.yaml')}`,
      `spec.kubernetesFile[0].files[1].path[0]: ${root}/*/../../secret/* goes up with .. after a wildcard, which could leave the directories file scrapers may read; write it without ..`,
    ]);
  });

  it('takes a relative path from the working directory, where the scraper reads it', async () => {
    expect(await scrapeSpecRootProblems({ file: [{ type: 'R', paths: ['manifests/*.yaml'] }] }, roots)).toEqual([
      `spec.file[0].paths[0]: ${outsideOf('manifests/*.yaml')}`,
    ]);
    expect(
      await scrapeSpecRootProblems({ file: [{ type: 'R', paths: ['manifests/*.yaml'] }] }, [process.cwd()]),
    ).toEqual([]);
  });
});

describe('checks on run', () => {
  const context = { namespace: 'default', fileRoots: roots };

  it('reads files under a root, a link inside at its target, and names them as matched', async () => {
    const scraped = await scrapeFiles(
      { paths: [join(root, '*.yaml'), join(root, 'apps', '*.yaml')] },
      undefined,
      context,
    );
    expect(scraped.errors).toEqual([]);
    expect(scraped.documents.map((document) => [document.source, document.document])).toEqual([
      [join(root, 'current.yaml'), { name: 'shop' }],
      [join(root, 'apps', 'shop.yaml'), { name: 'shop' }],
    ]);
  });

  it('fails the entry on a link out, naming the file, what it really is and the setting, not its content', async () => {
    const links = join(base, 'links');
    mkdirSync(links);
    symlinkSync(join(outside, 'key.yaml'), join(links, 'escape.yaml'));
    symlinkSync(outside, join(links, 'linked-dir'));
    const escape = await failure(
      scrapeFiles({ paths: [join(links, '*.yaml')] }, undefined, { ...context, fileRoots: [links] }),
    );
    const shown = `${join(links, 'escape.yaml')} (really ${join(outside, 'key.yaml')})`;
    expect(escape.message).toBe(`paths: ${outsideRoots(shown, [links], SCRAPE_ROOTS_RULE)}`);
    expect(escape.message).toContain(`LOOKOUT_SCRAPE_FILE_ROOTS=${links}`);
    expect(escape.message).not.toContain('the secret');
    const throughDirectory = await failure(
      scrapeFiles({ paths: [join(links, 'linked-dir', '*.yaml')] }, undefined, { ...context, fileRoots: [links] }),
    );
    expect(throughDirectory.message).toContain(`(really ${join(outside, 'key.yaml')}) is outside`);
  });

  it('refuses a glob outside, or climbing after a wildcard, before anything is listed', async () => {
    const pattern = await failure(
      scrapeFiles({ paths: [join(root, '*.yaml'), join(outside, '*')] }, undefined, context),
    );
    expect(pattern.message).toBe(`paths[1]: ${outsideOf(join(outside, '*'))}`);
    const climbs = `${root}/*/../../secret/*.yaml`;
    const climbed = await failure(scrapeFiles({ paths: [climbs] }, undefined, context));
    expect(climbed.message).toBe(
      `paths[0]: ${climbs} goes up with .. after a wildcard, which could leave the directories file scrapers may read; write it without ..`,
    );
    expect(climbed.message).not.toContain('key.yaml');
  });

  it('reads nothing without roots but the default /etc/lookout/catalog', async () => {
    const refused = await failure(scrapeFiles({ paths: [join(root, '*.yaml')] }, undefined, { namespace: 'default' }));
    expect(refused.message).toContain('(LOOKOUT_SCRAPE_FILE_ROOTS=/etc/lookout/catalog)');
  });

  it('holds kubernetesFile manifests to the same roots, naming files.path', async () => {
    const refused = await failure(
      scrapeKubernetesFiles({ files: [{ path: [join(sibling, '*.yaml')] }] }, { fileRoots: roots }),
    );
    expect(refused.message).toBe(`files.path[0]: ${outsideOf(join(sibling, '*.yaml'))}`);
  });
});
