import { CONFIG_LINK_TOASTS, MANUAL_LINK_SELECTOR, RELATIONSHIP_TEXTS } from '@lookout/contracts';
import { Unlink } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useLinkedComponents, useUnlinkComponent, type LinkedComponent } from '../api/relationships-api';

export interface LinkedComponentsProps {
  configId: string;
  /** Read on topologies: without it the section is left out. */
  canRead: boolean;
  /** Write on topologies: manual links can then be removed. */
  canUnlink: boolean;
}

/**
 * The topology components the item stands behind (spec 3 section 2.1: manual links between a
 * component and a config can be removed, 'Deleted config link successfully'). Shown only when
 * there are some.
 */
export function LinkedComponents({ configId, canRead, canUnlink }: LinkedComponentsProps) {
  const components = useLinkedComponents(configId, canRead);
  const unlink = useUnlinkComponent();
  const [removing, setRemoving] = useState<LinkedComponent>();
  const rows = components.data ?? [];
  if (!canRead || rows.length === 0) return null;
  return (
    <section aria-label={RELATIONSHIP_TEXTS.components} className="rounded-lg border border-slate-200 bg-white">
      <h2 className="border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
        {RELATIONSHIP_TEXTS.components}
      </h2>
      <ul className="divide-y divide-slate-100 text-sm">
        {rows.map((row) => (
          <li key={row.component_id} className="flex items-center gap-2 px-3 py-1.5">
            <Link to={`/topology/${row.component_id}`} className="font-medium text-sky-800 hover:underline">
              {row.component?.name ?? row.component_id}
            </Link>
            <span className="text-slate-500">{row.component?.type}</span>
            {row.selector_id === MANUAL_LINK_SELECTOR && (
              <span className="rounded bg-violet-50 px-1 text-xs text-violet-800 ring-1 ring-violet-200">
                {RELATIONSHIP_TEXTS.manual}
              </span>
            )}
            {row.selector_id === MANUAL_LINK_SELECTOR && canUnlink && (
              <button
                type="button"
                aria-label={`${RELATIONSHIP_TEXTS.unlink} ${row.component?.name ?? ''}`}
                title={RELATIONSHIP_TEXTS.unlink}
                onClick={() => setRemoving(row)}
                className="ml-auto rounded p-1 text-slate-500 hover:bg-red-50 hover:text-red-700"
              >
                <Unlink aria-hidden className="size-4" />
              </button>
            )}
          </li>
        ))}
      </ul>
      {removing && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open && !unlink.isPending) setRemoving(undefined);
          }}
          title={RELATIONSHIP_TEXTS.unlinkConfirm(removing.component?.name ?? '')}
          confirmLabel={RELATIONSHIP_TEXTS.unlink}
          isPending={unlink.isPending}
          onConfirm={() =>
            unlink.mutate(
              { componentId: removing.component_id, configId },
              {
                onSuccess: () => {
                  toast.success(CONFIG_LINK_TOASTS.unlinked);
                  setRemoving(undefined);
                },
                onError: toastError,
              },
            )
          }
        />
      )}
    </section>
  );
}
