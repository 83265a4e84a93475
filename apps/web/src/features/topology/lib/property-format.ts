import { TOPOLOGY_USAGE_RED_PERCENT } from '@lookout/contracts';
import { formatDistanceStrict } from 'date-fns';
import type { ComponentProperty, PropertyLink } from './topology-types';

/**
 * How a component property is shown (spec 3 sections 2.2 and 9). Pure, so the card, the
 * headline metrics and the Details panel all agree and the rules are unit tested.
 */
export type PropertyDisplay =
  | { kind: 'hidden' }
  | { kind: 'url'; href: string; text: string }
  | { kind: 'age'; text: string; title: string }
  | { kind: 'links'; links: PropertyLink[] }
  /** `red` when a usage (value of max) is above 70 %; `title` carries the raw amount. */
  | { kind: 'text'; text: string; red: boolean; title?: string };

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** 1536 → '1.5KB' with one decimal; whole bytes stay whole. */
export function formatBytes(bytes: number, decimals = 1): string {
  if (!Number.isFinite(bytes)) return '';
  if (bytes === 0) return '0B';
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 ? String(Math.round(value)) : String(Number(value.toFixed(decimals)));
  return `${sign}${text}${BYTE_UNITS[unit]}`;
}

/**
 * Currency (spec 3 section 2.2): k for thousands with one decimal, whole numbers above 100,
 * one decimal above 10, two below, three under a cent.
 */
export function formatCurrency(value: number | string | null | undefined): string {
  const amount = typeof value === 'number' ? value : Number.parseFloat(value ?? '');
  if (!Number.isFinite(amount)) return '0';
  if (amount >= 1000) return `${(amount / 1000).toFixed(1)}k`;
  if (amount > 100) return amount.toFixed(0);
  if (amount > 10) return amount.toFixed(1);
  if (amount > 0.01) return amount.toFixed(2);
  if (amount > 0.001) return amount.toFixed(3);
  return String(amount);
}

/** A number in its unit: milli* in whole units with two decimals, bytes scaled, else as is. */
export function formatUnitValue(value: number, unit: string | null | undefined): string {
  if (unit?.startsWith('milli')) return (value / 1000).toFixed(2);
  if (unit === 'bytes') return formatBytes(value, value > 1e9 ? 1 : 0);
  if (unit === 'percent') return `${Number((value * 100).toFixed(2))}%`;
  return String(value);
}

/** The share of max in whole percent, when the property has a numeric value and max. */
export function usagePercent(property: ComponentProperty): number | undefined {
  if (property.value === null || property.value === undefined || property.value === '') return undefined;
  if (property.max === null || property.max === undefined || property.max === 0) return undefined;
  const value = Number(property.value);
  if (!Number.isFinite(value)) return undefined;
  return Math.round((value / property.max) * 100);
}

const AGE_NAMES = new Set(['created', 'created_at', 'updated_at']);

function hasContent(value: unknown): boolean {
  return value !== null && value !== undefined && String(value).trim() !== '';
}

/** The label of a property: its label, else its name. */
export function propertyLabel(property: ComponentProperty): string {
  return property.label ?? property.name ?? '';
}

/**
 * Decides how to show a property. `short` is the headline form (no 'of max' suffix); `now`
 * anchors ages.
 */
export function describeProperty(
  property: ComponentProperty,
  { short = false, now = new Date() }: { short?: boolean; now?: Date } = {},
): PropertyDisplay {
  if (property.type === 'hidden') return { kind: 'hidden' };
  const isAge = property.type === 'age' || AGE_NAMES.has(property.name ?? '');
  if (isAge && hasContent(property.text)) {
    const date = new Date(property.text ?? '');
    if (!Number.isNaN(date.getTime())) {
      return { kind: 'age', text: formatDistanceStrict(date, now), title: property.text ?? '' };
    }
  }
  if (property.type === 'url') {
    const href = property.url ?? property.text ?? String(property.value ?? '');
    if (!hasContent(href)) return { kind: 'hidden' };
    return { kind: 'url', href, text: (property.text ?? href).replace(/^https?:\/\//, '') };
  }
  if (property.type === 'currency') return { kind: 'text', text: formatCurrency(property.value), red: false };
  if (!hasContent(property.value) && !hasContent(property.text)) {
    return property.links?.length ? { kind: 'links', links: property.links } : { kind: 'hidden' };
  }
  if (!hasContent(property.value)) return { kind: 'text', text: property.text ?? '', red: false };
  const value = Number(property.value);
  if (!Number.isFinite(value)) return { kind: 'text', text: property.text ?? String(property.value), red: false };
  const percent = usagePercent(property);
  if (percent !== undefined) {
    const amount = formatUnitValue(value, property.unit);
    const suffix =
      !short && property.max != null && property.unit ? ` of ${formatUnitValue(property.max, property.unit)}` : '';
    return { kind: 'text', text: `${percent}%${suffix}`, red: percent > TOPOLOGY_USAGE_RED_PERCENT, title: amount };
  }
  return {
    kind: 'text',
    text: property.unit ? formatUnitValue(value, property.unit) : (property.text ?? String(value)),
    red: false,
  };
}

/** True when the property shows something on a card (hidden and empty ones do not). */
export function isVisibleProperty(property: ComponentProperty): boolean {
  return describeProperty(property).kind !== 'hidden';
}
