import { CLIPBOARD_MESSAGES, HTTP_MESSAGES, TRISTATE } from '@lookout/contracts';
import { Bomb } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { CopyButton } from '@/components/ui/copy-to-clipboard';
import { ErrorBoundary, ErrorPanel } from '@/components/ui/error-boundary';
import { FacetDropdown } from '@/components/ui/facet-dropdown';
import { RefreshRateSelect, useRefreshRateParam } from '@/components/ui/refresh-rate-select';
import { SearchBox } from '@/components/ui/search-box';
import { Switch } from '@/components/ui/switch';
import {
  absoluteTimeRange,
  TimeRangePicker,
  useTimeRangeParams,
  type TimeRange,
} from '@/components/ui/time-range-picker';
import { toast } from '@/components/ui/toast';
import { TristateFilter } from '@/components/ui/tristate-filter';
import type { TristateSelection } from '@/components/ui/tristate-fns';
import { UnauthorizedView } from '@/components/ui/unauthorized-view';
import { formatDuration, formatPercentage } from '@/lib/format';
import { GalleryExample, GallerySection } from './gallery-section';

const NAMESPACES = ['commerce', 'data', 'edge', 'identity', 'messaging', 'observability', 'payments', 'platform'].map(
  (value) => ({ value }),
);
const LABEL_VALUES = [
  'app.kubernetes.io/name=checkout',
  'app.kubernetes.io/name=payments',
  'app.kubernetes.io/name=ledger',
  'app.kubernetes.io/part-of=storefront',
  'team=payments',
  'team=platform',
  'team=sre',
  'tier=frontend',
  'tier=backend',
  'env=production',
  'env=staging',
  'region=eu-west-1',
  'region=us-east-2',
  'owner=ada.okafor',
].map((value) => ({ value }));
const CHANGE_TYPES = ['diff', 'BackOff', 'Pulled', 'ScalingReplicaSet', 'Killing', 'PullRequestMerged'].map(
  (value) => ({
    value,
  }),
);

function AppliedValue({ children }: { children: string }) {
  return (
    <p className="truncate font-mono text-xs text-slate-500" title={children}>
      {children}
    </p>
  );
}

/** Search, facets, include/exclude, time range and refresh rate in the states pages use. */
export function FiltersSection() {
  const [search, setSearch] = useState('');
  const [prefilled, setPrefilled] = useState('payments-db');
  const [none, setNone] = useState<string[]>([]);
  const [few, setFew] = useState(['payments', 'identity']);
  const [many, setMany] = useState(['commerce', 'data', 'edge', 'payments', 'platform']);
  const [labels, setLabels] = useState<string[]>(['team=sre']);
  const [emptyTristate, setEmptyTristate] = useState<TristateSelection>({});
  const [changeTypes, setChangeTypes] = useState<TristateSelection>({
    diff: TRISTATE.include,
    BackOff: TRISTATE.exclude,
  });
  const { timeRange, setTimeRange } = useTimeRangeParams();
  const [absolute, setAbsolute] = useState<TimeRange>(() =>
    absoluteTimeRange(new Date(2025, 5, 2, 8, 0), new Date(2025, 5, 4, 18, 30)),
  );
  const [rate, setRate] = useRefreshRateParam();
  const [localRate, setLocalRate] = useState('30s');
  const [hidePassing, setHidePassing] = useState(true);

  return (
    <GallerySection
      id="filters"
      title="Filters"
      description="Search box with a clear button (400 ms debounce); facet dropdowns list fewer than 4 selections and count 4 or more; include/exclude filters cycle none, include, exclude; the time-range picker and refresh-rate select keep their value in the URL; a switch toggles from its label too."
    >
      <div className="grid gap-x-6 gap-y-5 sm:grid-cols-2 xl:grid-cols-3">
        <GalleryExample label="Search box, empty">
          <SearchBox value={search} onChange={setSearch} placeholder="Search by name, description, or endpoint" />
          <AppliedValue>{`applied: "${search}"`}</AppliedValue>
        </GalleryExample>
        <GalleryExample label="Search box with text (clear button)">
          <SearchBox value={prefilled} onChange={setPrefilled} placeholder="Search checks" />
          <AppliedValue>{`applied: "${prefilled}"`}</AppliedValue>
        </GalleryExample>
        <GalleryExample label="Refresh rate (URL parameter 'refresh')">
          <div className="flex items-center gap-3">
            <RefreshRateSelect value={rate} onChange={setRate} />
            <RefreshRateSelect value={localRate} onChange={setLocalRate} />
          </div>
          <AppliedValue>{`refresh=${rate} · local=${localRate}`}</AppliedValue>
        </GalleryExample>

        <GalleryExample label="Facet, nothing selected">
          <FacetDropdown label="Namespace" options={NAMESPACES} value={none} onChange={setNone} />
        </GalleryExample>
        <GalleryExample label="Facet, 2 selected (listed)">
          <FacetDropdown label="Namespace" options={NAMESPACES} value={few} onChange={setFew} />
        </GalleryExample>
        <GalleryExample label="Facet, 5 selected (counted)">
          <FacetDropdown label="Namespace" options={NAMESPACES} value={many} onChange={setMany} />
        </GalleryExample>
        <GalleryExample label="Facet with 14 options (filter box)">
          <FacetDropdown label="Label" options={LABEL_VALUES} value={labels} onChange={setLabels} />
        </GalleryExample>

        <GalleryExample label="Include/exclude, nothing set">
          <TristateFilter
            label="Change type"
            options={CHANGE_TYPES}
            value={emptyTristate}
            onChange={setEmptyTristate}
          />
        </GalleryExample>
        <GalleryExample label="Include/exclude, one of each">
          <TristateFilter label="Change type" options={CHANGE_TYPES} value={changeTypes} onChange={setChangeTypes} />
        </GalleryExample>

        <GalleryExample label="Time range in the URL (empty until chosen)">
          <TimeRangePicker value={timeRange} onChange={setTimeRange} />
          <AppliedValue>{timeRange ? JSON.stringify(timeRange) : 'no range in the URL'}</AppliedValue>
        </GalleryExample>
        <GalleryExample label="Time range, absolute">
          <TimeRangePicker value={absolute} onChange={setAbsolute} />
        </GalleryExample>
        <GalleryExample label="Switch (its label toggles it too)">
          <Switch label="Hide Passing" checked={hidePassing} onCheckedChange={setHidePassing} />
          <Switch label="Disabled" checked={false} onCheckedChange={setHidePassing} disabled />
          <AppliedValue>{`checked: ${String(hidePassing)}`}</AppliedValue>
        </GalleryExample>
      </div>
    </GallerySection>
  );
}

const KUBECTL_COMMAND = 'kubectl --kubeconfig ~/Downloads/lookout-kubeconfig.yaml get canaries -A';

/** The copy button next to a command, as the kubeconfig dialog shows it. */
export function CopySection() {
  return (
    <GallerySection
      id="copy"
      title="Copy to clipboard"
      description={`Copies and toasts '${CLIPBOARD_MESSAGES.copied}', '${CLIPBOARD_MESSAGES.failed}' or '${CLIPBOARD_MESSAGES.unavailable}'; the icon turns into a check mark for 2 s.`}
    >
      <div className="flex max-w-2xl items-center gap-2 rounded-md border border-slate-200 bg-slate-50 py-1.5 pr-1.5 pl-3">
        <code className="min-w-0 flex-1 truncate font-mono text-xs text-slate-800" title={KUBECTL_COMMAND}>
          {KUBECTL_COMMAND}
        </code>
        <CopyButton text={KUBECTL_COMMAND} label="Copy command" />
      </div>
    </GallerySection>
  );
}

const buttonClass =
  'inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600';

/** Every kind of toast the console raises, with the spec's texts. */
export function ToastsSection() {
  return (
    <GallerySection
      id="toasts"
      title="Toasts"
      description="Top right, 5 s each, with a close button. Transport failures are toasted once by the HTTP client; other failures show the server's message or 'An error occurred'."
    >
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass} onClick={() => toast.success('Ada Okafor invited successfully')}>
          Success
        </button>
        <button type="button" className={buttonClass} onClick={() => toast.info('Linked to incident successfully')}>
          Info
        </button>
        <button type="button" className={buttonClass} onClick={() => toast.error(HTTP_MESSAGES.timeout)}>
          Timeout
        </button>
        <button type="button" className={buttonClass} onClick={() => toast.error(HTTP_MESSAGES.network)}>
          Network error
        </button>
        <button type="button" className={buttonClass} onClick={() => toast.error(HTTP_MESSAGES.offline)}>
          Offline
        </button>
        <button type="button" className={buttonClass} onClick={() => toast.error(HTTP_MESSAGES.generic)}>
          Generic error
        </button>
        <button
          type="button"
          className={buttonClass}
          onClick={() =>
            toast.error(
              "Connection 'prod-postgres' could not be saved: the URL must start with postgres:// or postgresql://",
            )
          }
        >
          Long server message
        </button>
      </div>
    </GallerySection>
  );
}

function CrashingWidget(): never {
  throw new TypeError("Cannot read properties of undefined (reading 'namespace')");
}

/** A live error boundary: the button makes its child throw while rendering. */
function CrashDemo() {
  const [crashed, setCrashed] = useState(false);
  if (crashed) return <CrashingWidget />;
  return (
    <div className="flex items-center gap-3 rounded-md border border-dashed border-slate-300 p-4">
      <p className="flex-1 text-sm text-slate-600">
        A widget inside an error boundary. Crash it, then press Try again.
      </p>
      <button type="button" className={buttonClass} onClick={() => setCrashed(true)}>
        <Bomb aria-hidden className="mr-1.5 size-4" />
        Crash this widget
      </button>
    </div>
  );
}

/** What a crashed page, a forbidden area and an unknown address show. */
export function ErrorViewsSection() {
  return (
    <GallerySection
      id="error-views"
      title="Error views"
      description="The error panel of a crashed render, the unauthorized view of a guarded area, and the not-found page."
    >
      <div className="space-y-4">
        <GalleryExample label="Error panel (expand the details)">
          <ErrorPanel
            error={new Error('Request failed with status code 502: upstream connect error or disconnect/reset')}
            onRetry={() => toast.info('Retrying')}
          />
        </GalleryExample>
        <GalleryExample label="Error boundary, live">
          <ErrorBoundary>
            <CrashDemo />
          </ErrorBoundary>
        </GalleryExample>
        <GalleryExample label="Unauthorized view">
          <UnauthorizedView />
        </GalleryExample>
        <GalleryExample label="Not-found page">
          <Link
            to="/no/such/page"
            className="text-sm font-medium text-sky-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600"
          >
            Open an address that does not exist
          </Link>
        </GalleryExample>
      </div>
    </GallerySection>
  );
}

const DURATIONS = [42, 999, 1_000, 12_500, 59_999, 90_000, 3_600_000, 93_600_000, null];
const PERCENTAGES = [100, 99.95, 99.5, 87.25, 0, null];

/** `src/lib/format.ts` on the values a console meets. */
export function FormattingSection() {
  return (
    <GallerySection
      id="formatting"
      title="Formatting"
      description="Durations switch from ms to s, m and h at 1 000, 60 000 and 3 600 000 ms; percentages keep one decimal; a missing value reads '-'."
    >
      <div className="grid gap-6 sm:grid-cols-2">
        <table className="w-full text-sm">
          <caption className="mb-1 text-left text-xs font-medium text-slate-500">formatDuration(ms)</caption>
          <tbody>
            {DURATIONS.map((ms) => (
              <tr key={String(ms)} className="border-b border-slate-100">
                <td className="py-1 font-mono text-xs text-slate-500">{String(ms)}</td>
                <td className="py-1 text-right tabular-nums">{formatDuration(ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="w-full text-sm">
          <caption className="mb-1 text-left text-xs font-medium text-slate-500">formatPercentage(value)</caption>
          <tbody>
            {PERCENTAGES.map((value) => (
              <tr key={String(value)} className="border-b border-slate-100">
                <td className="py-1 font-mono text-xs text-slate-500">{String(value)}</td>
                <td className="py-1 text-right tabular-nums">{formatPercentage(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </GallerySection>
  );
}
