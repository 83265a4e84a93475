import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { RefreshRateSelect, useRefreshRateParam } from '@/components/ui/refresh-rate-select';
import { refreshRateToMs } from '@/components/ui/refresh-rate-fns';
import { createGalleryChecks, fetchGalleryChecks } from './gallery-data';
import { ShellPreviewSection } from './gallery-shell';
import { ChecksTableSection, RemoteTableSection, TableStatesSection, VirtualTableSection } from './gallery-tables';
import { CopySection, ErrorViewsSection, FiltersSection, FormattingSection, ToastsSection } from './gallery-widgets';

const CONTENTS = [
  ['checks-table', 'Grouping & client pages'],
  ['remote-table', 'Remote pages'],
  ['virtual-table', 'Virtual scrolling'],
  ['table-states', 'Loading & empty'],
  ['filters', 'Filters'],
  ['copy', 'Copy'],
  ['toasts', 'Toasts'],
  ['error-views', 'Error views'],
  ['formatting', 'Formatting'],
  ['shell-preview', 'Sidebar'],
] as const;

/**
 * `/dev/gallery`: every shared widget with realistic data, for visual review while developing.
 * The route exists only in the dev server (see `router.tsx`), so nothing here ships.
 */
export function Component() {
  const allChecks = useMemo(createGalleryChecks, []);
  const [rate, setRate] = useRefreshRateParam();
  // Loaded through React Query like a real page, so the header's refresh button and the
  // refresh rate drive a real refetch and the tables show their busy states.
  const checks = useQuery({
    queryKey: ['dev-gallery', 'checks'],
    queryFn: () => fetchGalleryChecks(allChecks),
    refetchInterval: refreshRateToMs(rate) ?? false,
  });

  return (
    <div className="mx-auto max-w-screen-2xl space-y-6">
      <PageHeader
        title="Widget gallery"
        onRefresh={() => void checks.refetch()}
        isLoading={checks.isFetching}
        actions={<RefreshRateSelect value={rate} onChange={setRate} />}
      />
      <nav aria-label="Gallery sections" className="flex flex-wrap gap-x-1 gap-y-1 text-sm">
        {CONTENTS.map(([id, label]) => (
          <a
            key={id}
            href={`#${id}`}
            className="rounded-md px-2.5 py-1 text-slate-600 hover:bg-white hover:text-slate-900 hover:shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600"
          >
            {label}
          </a>
        ))}
      </nav>
      <ChecksTableSection checks={checks.data ?? []} isLoading={checks.isPending || checks.isFetching} />
      <RemoteTableSection />
      <VirtualTableSection checks={allChecks} />
      <TableStatesSection />
      <FiltersSection />
      <CopySection />
      <ToastsSection />
      <ErrorViewsSection />
      <FormattingSection />
      <ShellPreviewSection />
    </div>
  );
}
