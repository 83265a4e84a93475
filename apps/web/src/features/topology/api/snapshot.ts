import { topologySnapshotFileName } from '@lookout/contracts';
import { snapshotApi } from '@/lib/api-client';

/**
 * `GET /api/snapshot/topology/<id>?start=&related=` (ui-calls 3.16): the zip. Read as bytes
 * (works in every browser and test DOM alike) and wrapped as a zip blob.
 */
export async function getSnapshot(id: string, start: string, related: boolean): Promise<Blob> {
  const { data } = await snapshotApi.get<ArrayBuffer>(`/topology/${encodeURIComponent(id)}`, {
    params: { start, related: String(related) },
    responseType: 'arraybuffer',
  });
  return new Blob([data], { type: 'application/zip' });
}

/** Saves a blob under a name through a temporary link (the browser's download). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Downloads the snapshot as `<name>-snapshot.zip`. */
export async function downloadSnapshot(component: { id: string; name: string }, start: string, related: boolean) {
  const blob = await getSnapshot(component.id, start, related);
  saveBlob(blob, topologySnapshotFileName(component.name));
}
