import { ChangesView } from './changes-view';

/**
 * The item's Changes tab: the changes list for this item and, through the Downstream (default
 * on) and Upstream (default off) toggles, its related items.
 */
export function ConfigChangesTab({ configId }: { configId: string }) {
  return (
    <div className="flex min-h-0 flex-1 flex-col pt-2">
      <ChangesView configId={configId} />
    </div>
  );
}
