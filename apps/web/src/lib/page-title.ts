import { PRODUCT_NAME } from '@lookout/contracts';
import { useEffect } from 'react';

/** `Incidents` → `Incidents | Lookout`; no title (or the product name itself) → `Lookout`. */
export function formatPageTitle(title?: string): string {
  const trimmed = title?.trim();
  if (!trimmed || trimmed === PRODUCT_NAME) return PRODUCT_NAME;
  return `${trimmed} | ${PRODUCT_NAME}`;
}

/**
 * Sets the browser tab title while the calling page is mounted. On unmount it falls back to
 * the product name, so a page that sets no title never shows the previous page's.
 */
export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = formatPageTitle(title);
    return () => {
      document.title = PRODUCT_NAME;
    };
  }, [title]);
}
