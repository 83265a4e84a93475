import { VIEW_MESSAGES } from '@lookout/contracts';
import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { usePageTitle } from '@/lib/page-title';

/** The page for an address no route matches. */
export function NotFound() {
  usePageTitle(VIEW_MESSAGES.notFoundTitle);
  return (
    <section
      aria-labelledby="not-found-title"
      className="mx-auto my-16 flex w-full max-w-md flex-col items-center text-center"
    >
      <div className="flex size-12 items-center justify-center rounded-full bg-slate-100">
        <Compass aria-hidden className="size-6 text-slate-500" />
      </div>
      <h1 id="not-found-title" className="mt-4 text-lg font-semibold text-slate-900">
        {VIEW_MESSAGES.notFoundTitle}
      </h1>
      <p className="mt-2 text-sm text-slate-600">{VIEW_MESSAGES.notFoundBody}</p>
      <Link
        to="/"
        className="mt-6 inline-flex items-center rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600"
      >
        {VIEW_MESSAGES.goBack}
      </Link>
    </section>
  );
}
