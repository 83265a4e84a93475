import { HEALTH_PAGE_TEXTS } from '@lookout/contracts';

export interface HealthCountsProps {
  passing: number | undefined;
  failing: number | undefined;
}

/** Passing and failing counts in the page header (spec 2 section 2.2). */
export function HealthCounts({ passing, failing }: HealthCountsProps) {
  const show = (count: number | undefined) => (count === undefined ? '…' : String(count));
  return (
    <p className="flex items-center gap-3 text-sm whitespace-nowrap tabular-nums" aria-label="Check counts">
      <span className="font-medium text-green-700">
        {show(passing)} {HEALTH_PAGE_TEXTS.passing}
      </span>
      <span className="font-medium text-red-700">
        {show(failing)} {HEALTH_PAGE_TEXTS.failing}
      </span>
    </p>
  );
}
