import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  LocalPropertiesError,
  mergeLocalProperties,
  parseInlineProperties,
  parsePropertiesYaml,
  type LocalProperty,
} from './local-properties-fns.js';

/** The properties file looked for in the data directory when none is configured. */
export const DEFAULT_PROPERTIES_FILE = 'properties.yaml';

/**
 * Reads the local properties at start-up: the file (the configured one must exist; the
 * default `<data dir>/properties.yaml` is optional), then `LOOKOUT_PROPERTIES` over it.
 * A wrong entry stops start-up with a message naming the setting.
 */
export async function loadLocalProperties(options: {
  inline?: string;
  file?: string;
  dataDir: string;
}): Promise<LocalProperty[]> {
  const configured = options.file !== undefined;
  const file = options.file ?? path.join(options.dataDir, DEFAULT_PROPERTIES_FILE);
  let fromFile: LocalProperty[] = [];
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (configured || code !== 'ENOENT') {
      throw new LocalPropertiesError(
        `LOOKOUT_PROPERTIES_FILE (--properties-file) cannot be read: ${file} (${code ?? String(error)})`,
      );
    }
  }
  if (text !== undefined) {
    try {
      fromFile = parsePropertiesYaml(text, file);
    } catch (error) {
      throw new LocalPropertiesError(`LOOKOUT_PROPERTIES_FILE (--properties-file): ${(error as Error).message}`);
    }
  }
  let inline: LocalProperty[] = [];
  if (options.inline !== undefined) {
    try {
      inline = parseInlineProperties(options.inline);
    } catch (error) {
      throw new LocalPropertiesError(`LOOKOUT_PROPERTIES (--properties) ${(error as Error).message}`);
    }
  }
  return mergeLocalProperties(fromFile, inline);
}
