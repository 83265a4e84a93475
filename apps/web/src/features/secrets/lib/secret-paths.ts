import type { SecretStoreEntryParams } from '@lookout/contracts';

/** The API path of one entry, each part encoded (names may hold dots). */
export const entryPath = ({ kind, namespace, name }: SecretStoreEntryParams): string =>
  `/secrets/${encodeURIComponent(kind)}/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
