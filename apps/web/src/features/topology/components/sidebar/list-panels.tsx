import { MANUAL_LINK_SELECTOR_ID, TOPOLOGY_TEXTS } from '@lookout/contracts';
import { X } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useUnlinkConfig } from '../../api/config-link';
import {
  useComponentChanges,
  useComponentChecks,
  useComponentConfigs,
  useComponentIncidents,
  useComponentInsights,
  useComponentPlaybookRuns,
  useComponentTeams,
} from '../../api/panel-api';
import { useRouteExists } from '../../hooks/use-route-exists';
import { HealthDot } from '@/components/ui/health-dot';
import { PanelBody } from './collapsible-panel';

/** The health page with a check's drawer open. */
const checkPath = (checkId: string) => `/health?checkId=${encodeURIComponent(checkId)}`;

const empty = TOPOLOGY_TEXTS.panelEmpty;
const rowClass = 'flex min-w-0 items-center gap-2 text-sm';
const linkClass = 'truncate text-slate-800 hover:underline';

/** Catalog: the linked items (to /catalog/{id}); manual links can be removed by writers. */
export function CatalogPanel({ id, canWrite }: { id: string; canWrite: boolean }) {
  const query = useComponentConfigs(id, true);
  const unlink = useUnlinkConfig(id);
  return (
    <PanelBody query={query} empty={empty.catalog}>
      {(rows) =>
        rows.map((row) => (
          <li key={row.config_id} className={rowClass}>
            <Link to={`/catalog/${encodeURIComponent(row.config_id)}`} className={linkClass}>
              {row.configs?.name ?? row.config_id}
            </Link>
            <span className="shrink-0 text-xs text-slate-500">{row.configs?.type}</span>
            {canWrite && row.selector_id === MANUAL_LINK_SELECTOR_ID && (
              <button
                type="button"
                aria-label={`${TOPOLOGY_TEXTS.link.unlink} ${row.configs?.name ?? ''}`}
                className="ml-auto rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-slate-800"
                onClick={() =>
                  unlink.mutate(row.config_id, {
                    onSuccess: () => toast.success(TOPOLOGY_TEXTS.link.unlinked),
                    onError: toastError,
                  })
                }
              >
                <X aria-hidden className="size-3.5" />
              </button>
            )}
          </li>
        ))
      }
    </PanelBody>
  );
}

/** Checks: each with its status, opening its drawer on the health page. */
export function ChecksPanel({ id }: { id: string }) {
  return (
    <PanelBody query={useComponentChecks(id, true)} empty={empty.checks}>
      {(rows) =>
        rows.map((check) => (
          <li key={check.id} className={rowClass}>
            <HealthDot health={check.status} size="md" />
            <Link to={checkPath(check.id)} className={linkClass}>
              {check.name}
            </Link>
            <span className="ml-auto shrink-0 text-xs text-slate-500">{check.type}</span>
          </li>
        ))
      }
    </PanelBody>
  );
}

/** Changes of the linked catalog items, newest first, each to its item. */
export function ChangesPanel({ id }: { id: string }) {
  return (
    <PanelBody query={useComponentChanges(id, true)} empty={empty.changes}>
      {(rows) =>
        rows.map((change) => (
          <li key={change.id} className="flex min-w-0 flex-col text-sm">
            <span className="flex items-center gap-2">
              <span className="font-medium text-slate-800">{change.change_type}</span>
              <Link
                to={`/catalog/${encodeURIComponent(change.config_id)}`}
                className="truncate text-slate-600 hover:underline"
              >
                {change.name}
              </Link>
            </span>
            <span className="text-xs text-slate-500">
              {formatDateTime(change.created_at)}
              {change.summary ? ` · ${change.summary}` : ''}
            </span>
          </li>
        ))
      }
    </PanelBody>
  );
}

/** Incidents naming the component, newest first, each to /incidents/{id} once that page exists. */
export function IncidentsPanel({ id }: { id: string }) {
  const exists = useRouteExists();
  return (
    <PanelBody query={useComponentIncidents(id, true)} empty={empty.incidents}>
      {(rows) =>
        rows.map((incident) => {
          const href = `/incidents/${encodeURIComponent(incident.id)}`;
          return (
            <li key={incident.id} className="flex min-w-0 flex-col text-sm">
              {exists(href) ? (
                <Link to={href} className={linkClass}>
                  {incident.title}
                </Link>
              ) : (
                <span className="truncate text-slate-800">{incident.title}</span>
              )}
              <span className="text-xs text-slate-500">
                {[incident.type, incident.severity, incident.status, formatDateTime(incident.created_at)]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </li>
          );
        })
      }
    </PanelBody>
  );
}

/** Teams the component belongs to, each to /settings/teams/{id}. */
export function TeamsPanel({ id }: { id: string }) {
  return (
    <PanelBody query={useComponentTeams(id, true)} empty={empty.teams}>
      {(rows) =>
        rows.map((row) => (
          <li key={row.team_id} className={rowClass}>
            <Link to={`/settings/teams/${encodeURIComponent(row.team_id)}`} className={linkClass}>
              {row.team?.name ?? row.team_id}
            </Link>
          </li>
        ))
      }
    </PanelBody>
  );
}

/** Insights of the linked catalog items, each to its item. */
export function InsightsPanel({ id }: { id: string }) {
  return (
    <PanelBody query={useComponentInsights(id, true)} empty={empty.insights}>
      {(rows) =>
        rows.map((insight) => (
          <li key={insight.id} className="flex min-w-0 flex-col text-sm">
            <span className="flex items-center gap-2">
              <span className="font-medium text-slate-800">{insight.analyzer}</span>
              <span className="text-xs text-slate-500">
                {[insight.analysis_type, insight.severity].filter(Boolean).join(' · ')}
              </span>
            </span>
            <Link
              to={`/catalog/${encodeURIComponent(insight.config_id)}/insights`}
              className="truncate text-xs text-slate-600 hover:underline"
            >
              {insight.message}
            </Link>
          </li>
        ))
      }
    </PanelBody>
  );
}

/** Playbook runs on the component, newest first, each to its run page once that page exists. */
export function PlaybookRunsPanel({ id }: { id: string }) {
  const exists = useRouteExists();
  return (
    <PanelBody query={useComponentPlaybookRuns(id, true)} empty={empty.playbookRuns}>
      {(rows) =>
        rows.map((run) => {
          const href = `/playbooks/runs/${encodeURIComponent(run.id)}`;
          const name = run.playbooks?.title || run.playbooks?.name || run.id;
          return (
            <li key={run.id} className="flex min-w-0 flex-col text-sm">
              {exists(href) ? (
                <Link to={href} className={linkClass}>
                  {name}
                </Link>
              ) : (
                <span className="truncate text-slate-800">{name}</span>
              )}
              <span className="text-xs text-slate-500">
                {[run.status, formatDateTime(run.start_time ?? run.created_at)].join(' · ')}
              </span>
            </li>
          );
        })
      }
    </PanelBody>
  );
}
