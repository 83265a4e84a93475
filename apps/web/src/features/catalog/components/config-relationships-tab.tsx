import {
  CATALOG_HEALTH_OPTIONS,
  CATALOG_STORAGE_KEYS,
  CATALOG_TEXTS,
  CONFIG_LINK_TOASTS,
  RELATIONSHIP_DIRECTIONS,
  RELATIONSHIP_EDGE_STYLES,
  RELATIONSHIP_TEXTS,
  type RelationshipDirection,
  type RelationshipEdgeStyle,
} from '@lookout/contracts';
import { clsx } from 'clsx';
import { Link2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { FacetDropdown } from '@/components/ui/facet-dropdown';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useManualLinks, useRelatedConfigs, useRelatedLabels, useUnlinkConfig } from '../api/relationships-api';
import { useStoredState } from '../hooks/use-stored-state';
import { withAncestors, type RelatedConfig } from '../lib/relationship-graph-fns';
import {
  filterRelated,
  readRelationshipParams,
  writeRelationshipParams,
  type RelationshipParams,
} from '../lib/relationship-params';
import { LinkConfigDialog } from './link-config-dialog';
import { LinkedComponents } from './linked-components';
import { RelationshipsGraph } from './relationships-graph';
import { RelationshipsTable } from './relationships-table';

const filters = RELATIONSHIP_TEXTS.filters;
const selectClass = 'h-8 rounded-md border border-slate-300 bg-white px-2 text-sm';
const options = (values: Iterable<string>) =>
  [...new Set(values)]
    .filter(Boolean)
    .sort()
    .map((value) => ({ value }));

/**
 * The Relationships tab (spec 3 section 2.1, ui-calls 3.5): toggles Outgoing, Incoming and
 * Soft, a Table/Graph switch, filters Config Types, Labels, Relationship, Status, Health and
 * Tag, all kept in the address. Writers link the item to another and remove manual links
 * ('Deleted config link successfully').
 */
export interface ConfigRelationshipsTabProps {
  configId: string;
  /** Write on config_scrapers: link items and remove manual links. */
  canLink: boolean;
  /** Read and write on topologies: the components the item is linked to, and their unlinking. */
  components?: { canRead: boolean; canUnlink: boolean } | undefined;
}

export function ConfigRelationshipsTab({ configId, canLink, components }: ConfigRelationshipsTabProps) {
  const [search, setSearch] = useSearchParams();
  const params = readRelationshipParams(search);
  const update = (change: Partial<RelationshipParams>) =>
    setSearch((current) => writeRelationshipParams(current, change), { replace: true });
  const [hideDeleted, setHideDeleted] = useStoredState(CATALOG_STORAGE_KEYS.hideDeleted, true);
  const related = useRelatedConfigs(configId, params, hideDeleted);
  const links = useManualLinks(configId);
  const unlink = useUnlinkConfig();
  const [linking, setLinking] = useState(false);
  const [unlinking, setUnlinking] = useState<{ row: RelatedConfig; link: { from: string; to: string } }>();

  const rows = useMemo(() => related.data ?? [], [related.data]);
  const ids = useMemo(() => rows.map((row) => row.id), [rows]);
  // Label choices come from the related items' labels, read once the filter is used.
  const [labelsWanted, setLabelsWanted] = useState(false);
  const labels = useRelatedLabels(ids, labelsWanted || params.labels.length > 0);
  const labelOptions = useMemo(
    () =>
      options(
        [...(labels.data?.values() ?? [])].flatMap((values) => Object.entries(values).map(([k, v]) => `${k}=${v}`)),
      ),
    [labels.data],
  );

  const kept = useMemo(
    () => filterRelated(rows, configId, params, (id) => labels.data?.get(id)),
    [rows, configId, params, labels.data],
  );
  const tableRows = useMemo(() => kept.filter((row) => row.id !== configId), [kept, configId]);
  const graphRows = useMemo(
    () => withAncestors(rows, configId, new Set(kept.map((row) => row.id))),
    [rows, configId, kept],
  );

  const manualLinkOf = (id: string) => {
    const found = (links.data ?? []).find(
      (link) =>
        (link.config_id === configId && link.related_id === id) ||
        (link.related_id === configId && link.config_id === id),
    );
    return found ? { from: found.config_id, to: found.related_id } : undefined;
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 pt-3">
      <div className="flex flex-wrap items-center gap-3">
        <Switch
          label={RELATIONSHIP_TEXTS.outgoing}
          checked={params.outgoing}
          onCheckedChange={(outgoing) => update({ outgoing })}
        />
        <Switch
          label={RELATIONSHIP_TEXTS.incoming}
          checked={params.incoming}
          onCheckedChange={(incoming) => update({ incoming })}
        />
        <Switch label={RELATIONSHIP_TEXTS.soft} checked={params.soft} onCheckedChange={(soft) => update({ soft })} />
        <div
          role="radiogroup"
          aria-label={RELATIONSHIP_TEXTS.view}
          className="flex rounded-md border border-slate-300 bg-white p-0.5"
        >
          {(['table', 'graph'] as const).map((view) => (
            <button
              key={view}
              type="button"
              role="radio"
              aria-checked={params.view === view}
              onClick={() => update({ view })}
              className={clsx(
                'rounded px-2.5 py-1 text-sm',
                params.view === view ? 'bg-sky-600 text-white' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {RELATIONSHIP_TEXTS[view]}
            </button>
          ))}
        </div>
        {params.view === 'graph' && (
          <>
            <label className="flex items-center gap-1.5 text-sm text-slate-700">
              {RELATIONSHIP_TEXTS.layout}
              <select
                className={selectClass}
                value={params.direction}
                onChange={(event) => update({ direction: event.target.value as RelationshipDirection })}
              >
                {RELATIONSHIP_DIRECTIONS.map((value) => (
                  <option key={value} value={value}>
                    {RELATIONSHIP_TEXTS.directions[value]}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-1.5 text-sm text-slate-700">
              {RELATIONSHIP_TEXTS.edgeStyle}
              <select
                className={selectClass}
                value={params.edgeStyle}
                onChange={(event) => update({ edgeStyle: event.target.value as RelationshipEdgeStyle })}
              >
                {RELATIONSHIP_EDGE_STYLES.map((value) => (
                  <option key={value} value={value}>
                    {RELATIONSHIP_TEXTS.edgeStyles[value]}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        {canLink && (
          <Button variant="secondary" className="ml-auto" onClick={() => setLinking(true)}>
            <Link2 aria-hidden className="size-4" />
            {RELATIONSHIP_TEXTS.link}
          </Button>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <FacetDropdown
          label={filters.configTypes}
          options={options(rows.map((row) => row.type ?? ''))}
          value={params.configTypes}
          onChange={(configTypes) => update({ configTypes })}
        />
        <div onPointerDown={() => setLabelsWanted(true)} onFocus={() => setLabelsWanted(true)}>
          <FacetDropdown
            label={filters.labels}
            options={labelOptions}
            value={params.labels}
            onChange={(values) => update({ labels: values })}
          />
        </div>
        <FacetDropdown
          label={filters.relationship}
          options={RELATIONSHIP_TEXTS.relationshipOptions}
          value={params.relationship}
          onChange={(relationship) => update({ relationship })}
        />
        <FacetDropdown
          label={filters.status}
          options={options(rows.map((row) => row.status ?? ''))}
          value={params.status}
          onChange={(status) => update({ status })}
        />
        <FacetDropdown
          label={filters.health}
          options={CATALOG_HEALTH_OPTIONS}
          value={params.health}
          onChange={(health) => update({ health })}
        />
        <FacetDropdown
          label={filters.tag}
          options={options(rows.flatMap((row) => Object.entries(row.tags ?? {}).map(([k, v]) => `${k}=${v}`)))}
          value={params.tag}
          onChange={(tag) => update({ tag })}
        />
        <Switch label={CATALOG_TEXTS.hideDeleted} checked={hideDeleted} onCheckedChange={setHideDeleted} />
      </div>
      {related.isError && !related.data ? (
        <ErrorPanel error={related.error} onRetry={() => void related.refetch()} />
      ) : related.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          Loading
        </p>
      ) : params.view === 'graph' ? (
        <RelationshipsGraph
          rows={graphRows}
          rootId={configId}
          direction={params.direction}
          edgeStyle={params.edgeStyle}
        />
      ) : (
        <>
          <RelationshipsTable
            rows={tableRows}
            manualLinkOf={manualLinkOf}
            onUnlink={canLink ? (row, link) => setUnlinking({ row, link }) : undefined}
          />
          <LinkedComponents
            configId={configId}
            canRead={components?.canRead ?? false}
            canUnlink={components?.canUnlink ?? false}
          />
        </>
      )}
      {canLink && (
        <LinkConfigDialog
          configId={configId}
          open={linking}
          onOpenChange={setLinking}
          // A manual link is a soft edge: show soft links (and its side) so the new link is seen.
          onLinked={(direction) =>
            update({ soft: true, ...(direction === 'incoming' ? { incoming: true } : { outgoing: true }) })
          }
        />
      )}
      {unlinking && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open && !unlink.isPending) setUnlinking(undefined);
          }}
          title={RELATIONSHIP_TEXTS.unlinkConfirm(unlinking.row.name ?? '')}
          confirmLabel={RELATIONSHIP_TEXTS.unlink}
          isPending={unlink.isPending}
          onConfirm={() =>
            unlink.mutate(unlinking.link, {
              onSuccess: () => {
                toast.success(CONFIG_LINK_TOASTS.unlinked);
                setUnlinking(undefined);
              },
              onError: toastError,
            })
          }
        />
      )}
    </div>
  );
}
