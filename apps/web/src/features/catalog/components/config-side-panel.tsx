import { CATALOG_TEXTS } from '@lookout/contracts';
import { Siren, TriangleAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useLinkToIncident } from '@/components/link-to-incident-slot';
import { buttonClasses } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import type { ConfigDetail } from '../api/catalog-api';
import { configClassOf, formatCost, groupLabels, isStale } from '../lib/catalog-fns';
import { scraperPath } from '../lib/scraper-fns';
import { HealthDot } from '@/components/ui/health-dot';

const texts = CATALOG_TEXTS.panel;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}

/**
 * The item's facts: name, tags, status and health, created (with its scraper), updated (with
 * the stale warning), type, class, cost, properties and labels by prefix; and 'Link to
 * incident', which the console offers only with the incidents feature on and write on
 * incident (ADR 0032).
 */
export function ConfigSidePanel({ item, now }: { item: ConfigDetail; now: Date }) {
  const stale = isStale(item.last_scraped_time, now);
  const linkDialog = useLinkToIncident();
  const [linking, setLinking] = useState(false);
  return (
    <aside
      className="flex w-80 shrink-0 flex-col gap-3 overflow-auto border-l border-slate-200 bg-white p-4 text-sm"
      aria-label={item.name ?? ''}
    >
      <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <HealthDot health={item.health} />
        {item.name}
      </h2>
      {linkDialog && (
        <button type="button" className={buttonClasses('secondary', 'self-start')} onClick={() => setLinking(true)}>
          <Siren aria-hidden className="size-4" />
          {texts.linkToIncident}
        </button>
      )}
      <div className="flex flex-wrap gap-1">
        {Object.entries(item.tags ?? {}).map(([key, value]) => (
          <span key={key} className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">
            {key}: {value}
          </span>
        ))}
      </div>
      <dl className="grid grid-cols-[6rem_1fr] gap-x-2 gap-y-1">
        {item.deleted_at && <Field label={texts.deleted}>{formatDateTime(item.deleted_at)}</Field>}
        <Field label={texts.status}>{item.status ?? ''}</Field>
        <Field label={texts.health}>{item.health ?? 'unknown'}</Field>
        <Field label={texts.created}>
          {formatDateTime(item.created_at)}
          {/* The scraper that created the item, linked to its page. */}
          {item.config_scrapers && (
            <>
              {' '}
              {texts.by}{' '}
              <Link to={scraperPath(item.config_scrapers.id)} className="font-medium text-sky-700 hover:underline">
                {item.config_scrapers.name}
              </Link>
            </>
          )}
        </Field>
        <Field label={texts.updated}>
          {formatDateTime(item.updated_at)}
          {stale && (
            <span role="status" className="ml-1 inline-flex items-center gap-0.5 text-xs text-orange-700">
              <TriangleAlert aria-hidden className="size-3" />
              {texts.stale}
            </span>
          )}
        </Field>
        <Field label={texts.type}>{item.type}</Field>
        <Field label={texts.class}>{item.config_class ?? configClassOf(item.type)}</Field>
        {formatCost(item.cost_total_30d) && <Field label={texts.cost}>{formatCost(item.cost_total_30d)}</Field>}
        {(item.properties ?? []).map((property, index) => (
          <Field key={`${property.name}-${index}`} label={property.name ?? ''}>
            {property.text ?? String(property.value ?? '')}
          </Field>
        ))}
      </dl>
      {Object.keys(item.labels ?? {}).length > 0 && (
        <section>
          <h3 className="mb-1 font-medium text-slate-700">{texts.labels}</h3>
          {groupLabels(item.labels).map(([prefix, labels]) => (
            <div key={prefix} className="mb-1.5">
              {prefix && <div className="text-xs text-slate-500">{prefix}</div>}
              <div className="flex flex-wrap gap-1">
                {labels.map(([key, value]) => (
                  <span key={key} className="rounded bg-blue-50 px-1.5 text-xs text-blue-900">
                    {key}: {value}
                  </span>
                ))}
              </div>
            </div>
          ))}
        </section>
      )}
      {linkDialog?.({
        // The whole item as config evidence, as the dialog attaches a config (ui-calls 3.6).
        evidence: { type: 'config', config_id: item.id, ...(item.name ? { description: item.name } : {}) },
        open: linking,
        onOpenChange: (open) => !open && setLinking(false),
      })}
    </aside>
  );
}
