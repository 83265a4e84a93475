import type { JobHistoryRow } from '@lookout/contracts';

/**
 * The details modal's rules (spec 2 sections 2.7 and 3): a run's `details` may carry `errors`
 * (a string, a list of strings, or an object keyed by item with a nested error),
 * `scrape_summary` and `summary`. Each tab appears only when its part has data; with none,
 * no modal opens; the modal opens on Errors, else Scrape Summary, else the summary.
 */

export type JobDetailsTab = 'errors' | 'scrape_summary' | 'summary';

/** The tabs in the order they are shown, which is also the order the first one is picked in. */
export const JOB_DETAILS_TABS: readonly JobDetailsTab[] = ['errors', 'scrape_summary', 'summary'];

/** One error of a run: the item it is about (when errors are keyed by item) and its text. */
export interface JobError {
  item?: string;
  message: string;
}

/** True when a details part holds something to show (not null, '', [] or {}). */
export function hasDetailsData(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(hasDetailsData);
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Text of one error value: a string as it is, `{error}` or `{message}` nested, else JSON. */
function errorText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const nested = 'error' in value ? value.error : 'message' in value ? value.message : undefined;
    if (nested !== undefined && nested !== null) return errorText(nested);
  }
  return JSON.stringify(value);
}

/** The run's errors as a flat list, whichever of the three shapes they came in. */
export function jobErrors(errors: unknown): JobError[] {
  if (!hasDetailsData(errors)) return [];
  if (typeof errors === 'string') return [{ message: errors }];
  if (Array.isArray(errors)) return errors.filter(hasDetailsData).map((error) => ({ message: errorText(error) }));
  if (typeof errors === 'object' && errors !== null) {
    return Object.entries(errors)
      .filter(([, value]) => hasDetailsData(value))
      .map(([item, value]) => ({ item, message: errorText(value) }));
  }
  return [{ message: errorText(errors) }];
}

/** The part of `details` a tab shows. */
export function detailsPart(details: JobHistoryRow['details'], tab: JobDetailsTab): unknown {
  return details?.[tab];
}

/** The tabs a run's details have data for, in display order; empty means no modal. */
export function jobDetailsTabs(details: JobHistoryRow['details']): JobDetailsTab[] {
  return JOB_DETAILS_TABS.filter((tab) => hasDetailsData(detailsPart(details, tab)));
}
