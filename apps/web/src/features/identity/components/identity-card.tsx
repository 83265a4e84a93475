import { PRODUCT_NAME } from '@lookout/contracts';
import { Lighthouse, LoaderCircle } from 'lucide-react';
import { useId } from 'react';
import type { ReactNode } from 'react';
import { usePageTitle } from '@/lib/page-title';

export interface IdentityCardProps {
  title: string;
  /** A line under the title. */
  description?: ReactNode;
  children: ReactNode;
  /** Links under the card (sign in, create account, recover account). */
  footer?: ReactNode;
}

/** The frame of the public identity pages: brand, a card with the title, links below it. */
export function IdentityCard({ title, description, children, footer }: IdentityCardProps) {
  usePageTitle(title);
  const titleId = useId();
  return (
    <main className="flex min-h-full items-start justify-center bg-slate-50 px-4 py-12 text-slate-900 sm:items-center">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2">
          <Lighthouse aria-hidden className="size-7 text-sky-600" />
          <span className="text-xl font-semibold tracking-tight">{PRODUCT_NAME}</span>
        </div>
        <section aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h1>
          {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
          <div className="mt-5">{children}</div>
        </section>
        {footer && <nav className="mt-4 flex flex-wrap justify-center gap-x-4 gap-y-2 text-sm">{footer}</nav>}
      </div>
    </main>
  );
}

/** The card's body while a flow is being created or read. */
export function FlowLoading() {
  return (
    <div role="status" className="flex min-h-24 items-center justify-center text-slate-400">
      <LoaderCircle aria-hidden className="size-6 animate-spin" />
      <span className="sr-only">Loading</span>
    </div>
  );
}
