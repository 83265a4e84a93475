import { clsx } from 'clsx';
import { ExternalLink } from 'lucide-react';
import { describeProperty, propertyLabel } from '../lib/property-format';
import type { ComponentProperty } from '../lib/topology-types';

/**
 * A property's `color` as a text colour; written out in full so the stylesheet build sees each
 * class. Other colour names show the default text colour.
 */
const COLOUR_CLASS: Record<string, string> = {
  red: 'text-red-600',
  orange: 'text-orange-600',
  yellow: 'text-yellow-600',
  green: 'text-green-600',
  blue: 'text-blue-600',
  gray: 'text-gray-600',
  purple: 'text-purple-600',
};

/** A property's value as its type and unit say (spec 3 section 2.2). */
export function PropertyValue({ property, short = false }: { property: ComponentProperty; short?: boolean }) {
  const display = describeProperty(property, { short });
  switch (display.kind) {
    case 'hidden':
      return null;
    case 'url':
      return (
        <a href={display.href} target="_blank" rel="noreferrer" className="underline hover:text-sky-700">
          {display.text}
          <ExternalLink aria-hidden className="ml-0.5 inline size-3" />
        </a>
      );
    case 'age':
      return <span title={display.title}>{display.text}</span>;
    case 'links':
      return (
        <span className="flex flex-wrap gap-2">
          {display.links.map((link) => (
            <a key={link.url} href={link.url} target="_blank" rel="noreferrer" className="text-sky-700 underline">
              {link.label ?? link.url}
            </a>
          ))}
        </span>
      );
    case 'text':
      return (
        <span
          title={display.title}
          className={clsx(display.red && 'text-red-600')}
          data-usage={display.red ? 'high' : undefined}
        >
          {display.text}
        </span>
      );
  }
}

/** 'label: value' on a card; nothing for hidden or empty properties. */
export function PropertyRow({ property }: { property: ComponentProperty }) {
  if (describeProperty(property).kind === 'hidden') return null;
  const label = propertyLabel(property);
  return (
    <div className="flex min-w-0 gap-1 text-xs">
      {label && <span className="shrink-0 text-slate-400">{label}:</span>}
      <span className={clsx('min-w-0 truncate', COLOUR_CLASS[property.color ?? ''])} title={property.text ?? undefined}>
        <PropertyValue property={property} />
      </span>
    </div>
  );
}

/** The headline properties: label above value, in a row divided by rules. */
export function CardMetrics({ items, inline = false }: { items: readonly ComponentProperty[]; inline?: boolean }) {
  if (items.length === 0) return null;
  return (
    <dl className="flex flex-1 items-center divide-x divide-slate-200">
      {items.map((item, index) => (
        <div
          key={`${item.name}-${index}`}
          className={clsx('flex max-w-[15ch] px-2 text-center', inline ? 'flex-row items-center gap-1' : 'flex-col')}
        >
          <dt className="truncate text-xs font-semibold text-slate-600">{propertyLabel(item)}</dt>
          <dd className="truncate text-xs font-bold text-slate-800">
            <PropertyValue property={item} short />
          </dd>
        </div>
      ))}
    </dl>
  );
}
