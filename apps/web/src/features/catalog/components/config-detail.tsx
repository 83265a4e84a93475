import { CATALOG_TEXTS, SILENCE_LINK_TEXT } from '@lookout/contracts';
import { clsx } from 'clsx';
import { BellOff } from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { buttonClasses } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useConfigDetail } from '../api/config-detail-api';
import { ConfigChangesTab } from './config-changes-tab';
import { ConfigChecksTab } from './config-checks-tab';
import { ConfigDocument } from './config-document';
import { ConfigInsightsTab } from './config-insights-tab';
import { ConfigPlaybooksTab } from './config-playbooks-tab';
import { ConfigRelationshipsTab } from './config-relationships-tab';
import { ConfigSidePanel } from './config-side-panel';

export const CONFIG_TABS = ['config', 'changes', 'insights', 'relationships', 'playbooks', 'checks'] as const;
export type ConfigTab = (typeof CONFIG_TABS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/catalog/{id}` and its tabs (Config, Changes, Insights, Relationships, Playbooks, Checks),
 * each with its count badge. `canLink`: write on the scrapers resource, which manual links need.
 * Playbooks shows only with `playbookRunsEnabled`, Checks only with `checksEnabled`.
 */
export function ConfigDetailPage({
  id,
  tab,
  canLink = false,
  components,
  silenceHref,
  playbookRunsEnabled = false,
  checksEnabled = false,
}: {
  id: string;
  tab: ConfigTab;
  canLink?: boolean;
  /** Read and write on topologies: the Relationships tab's linked components. */
  components?: { canRead: boolean; canUnlink: boolean };
  /** 'Silence' (spec 3 section 2.10): the add-silence page prefilled with this item, when allowed. */
  silenceHref?: string | undefined;
  /** The playbooks feature on and read on playbook_runs. */
  playbookRunsEnabled?: boolean;
  /** Read on canaries, which guards the linked checks. */
  checksEnabled?: boolean;
}) {
  const valid = UUID.test(id);
  const detail = useConfigDetail(valid ? id : '');
  if (!valid || detail.data === null) {
    return <p className="p-8 text-center text-slate-600">{CATALOG_TEXTS.notFound}</p>;
  }
  if (detail.isError) return <ErrorPanel error={detail.error} onRetry={() => void detail.refetch()} />;
  const item = detail.data;
  if (!item) return null;
  const badges: Record<ConfigTab, number | undefined> = {
    config: undefined,
    changes: item.summary?.changes,
    insights: item.summary?.analysis,
    relationships: item.summary?.relationships,
    playbooks: item.summary?.playbook_runs,
    checks: item.summary?.checks,
  };
  const shown = CONFIG_TABS.filter(
    (name) => (name !== 'playbooks' || playbookRunsEnabled) && (name !== 'checks' || checksEnabled),
  );
  return (
    <div className="flex h-full min-h-0">
      <PageHeader
        title={item.name ?? CATALOG_TEXTS.title}
        onRefresh={() => void detail.refetch()}
        isLoading={detail.isFetching}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-3 p-4">
        <div className="flex items-center justify-between gap-2">
          <nav className="text-sm text-slate-500">
            <Link to="/catalog" className="hover:underline">
              {CATALOG_TEXTS.title}
            </Link>{' '}
            /{' '}
            <Link to={`/catalog?configType=${encodeURIComponent(item.type ?? '')}`} className="hover:underline">
              {item.type}
            </Link>{' '}
            / <span className="text-slate-900">{item.name}</span>
          </nav>
          {silenceHref && (
            <Link to={silenceHref} className={buttonClasses('secondary')}>
              <BellOff aria-hidden className="size-4" />
              {SILENCE_LINK_TEXT}
            </Link>
          )}
        </div>
        <div role="tablist" className="flex gap-1 border-b border-slate-200">
          {shown.map((name) => (
            <Link
              key={name}
              role="tab"
              aria-selected={tab === name}
              to={name === 'config' ? `/catalog/${id}` : `/catalog/${id}/${name}`}
              className={clsx(
                '-mb-px border-b-2 px-3 py-1.5 text-sm',
                tab === name
                  ? 'border-blue-600 font-medium text-blue-700'
                  : 'border-transparent text-slate-600 hover:text-slate-900',
              )}
            >
              {CATALOG_TEXTS.tabs[name]}
              {badges[name] !== undefined && (
                <span className="ml-1.5 rounded-full bg-slate-100 px-1.5 text-xs tabular-nums text-slate-700">
                  {badges[name]}
                </span>
              )}
            </Link>
          ))}
        </div>
        <div role="tabpanel" className="flex min-h-0 flex-1 flex-col overflow-auto">
          {tab === 'config' && <ConfigDocument config={item.config} />}
          {tab === 'changes' && <ConfigChangesTab configId={id} />}
          {tab === 'insights' && <ConfigInsightsTab configId={id} />}
          {tab === 'relationships' && (
            <ConfigRelationshipsTab configId={id} canLink={canLink} components={components} />
          )}
          {tab === 'playbooks' && playbookRunsEnabled && <ConfigPlaybooksTab configId={id} />}
          {tab === 'checks' && checksEnabled && <ConfigChecksTab configId={id} />}
        </div>
      </div>
      <ConfigSidePanel item={item} now={new Date()} />
    </div>
  );
}
