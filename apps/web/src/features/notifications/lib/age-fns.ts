import { formatDistanceStrict } from 'date-fns';
import { MISSING_VALUE } from '@/lib/format';

const parse = (value: string | null | undefined) => {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** How long ago `value` was: '5 minutes ago'; '-' when it is missing or unreadable. */
export function ageOf(value: string | null | undefined, now: Date): string {
  const date = parse(value);
  return date ? `${formatDistanceStrict(date, now)} ago` : MISSING_VALUE;
}

/** The length between two times, '2 hours'; '-' when either is missing or unreadable. */
export function spanOf(from: string | null | undefined, to: string | null | undefined): string {
  const start = parse(from);
  const end = parse(to);
  return start && end ? formatDistanceStrict(start, end) : MISSING_VALUE;
}
