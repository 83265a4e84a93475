import { PRODUCT_NAME, SHELL_MESSAGES } from '@lookout/contracts';
import { LayoutGrid } from 'lucide-react';
import { PageHeader } from '@/components/layout/page-header';

/**
 * `/` while the build registers no console area (with one, `/` redirects to it). It says so
 * plainly instead of showing a demo.
 */
export function Component() {
  return (
    <>
      <PageHeader title={PRODUCT_NAME} />
      <section
        aria-labelledby="home-empty-title"
        className="mx-auto mt-16 flex max-w-md flex-col items-center rounded-lg border border-dashed border-slate-300 bg-white px-8 py-12 text-center"
      >
        <div className="flex size-12 items-center justify-center rounded-full bg-slate-100">
          <LayoutGrid aria-hidden className="size-6 text-slate-500" />
        </div>
        <h2 id="home-empty-title" className="mt-4 text-base font-semibold text-slate-900">
          {SHELL_MESSAGES.noAreasTitle}
        </h2>
        <p className="mt-2 text-sm text-slate-600">{SHELL_MESSAGES.noAreasBody}</p>
      </section>
    </>
  );
}
