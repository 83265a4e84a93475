import type { AllowedRoots } from '../../../files/allowed-roots.js';
import type { FetchResult } from '../scrape-engine.js';
import { scrapeFiles } from './file-scraper.js';
import { manifestDocument, manifestObjects, type ManifestSelector } from './kubernetes-fns.js';

/**
 * The `kubernetesFile` scraper: Kubernetes manifests in local files (`files[].path`, paths or
 * globs; YAML with `---` documents, JSON, and `List` kinds), one item per object, named as the
 * kubernetes scraper names them; `selector` keeps only objects of a kind (and namespace, name).
 * config-db reads such files from inside running pods; this build reads them on the server,
 * under LOOKOUT_SCRAPE_FILE_ROOTS only (scrape-file-roots.ts).
 */

export type KubernetesFileEntry = {
  selector?: ManifestSelector | undefined;
  files: Array<{ path: string[] }>;
};

export async function scrapeKubernetesFiles(
  entry: KubernetesFileEntry,
  options: { baseDir?: string | undefined; fileRoots?: AllowedRoots | undefined } = {},
): Promise<FetchResult> {
  const paths = entry.files.flatMap((file) => file.path);
  const scraped = await scrapeFiles({ paths }, options.baseDir, {
    namespace: 'default',
    fileRoots: options.fileRoots,
    field: 'files.path',
  });
  const documents = scraped.documents.flatMap((file) => {
    const objects = manifestObjects(file.document);
    return objects.flatMap((object, index) => {
      const source = objects.length > 1 ? `${file.source}[${index}]` : file.source;
      const document = manifestDocument(object, source, entry.selector);
      return document ? [document] : [];
    });
  });
  return { documents, errors: scraped.errors };
}
