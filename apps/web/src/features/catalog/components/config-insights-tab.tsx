import { InsightsView } from './insights-view';

/** The item's Insights tab: the insights list for this item. */
export function ConfigInsightsTab({ configId }: { configId: string }) {
  return (
    <div className="flex min-h-0 flex-1 flex-col pt-2">
      <InsightsView configId={configId} />
    </div>
  );
}
