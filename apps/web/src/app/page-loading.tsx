import { LoaderCircle } from 'lucide-react';

/** Shown in the page area while a page's code is still downloading on first load. */
export function PageLoading() {
  return (
    <div role="status" className="flex h-full min-h-40 items-center justify-center text-slate-400">
      <LoaderCircle aria-hidden className="size-6 animate-spin" />
      <span className="sr-only">Loading</span>
    </div>
  );
}
