import { DOCS_URL, PRODUCT_NAME } from '@lookout/contracts';
import { BookOpen, CircleHelp, ExternalLink } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { layoutClasses } from './layout-classes';

/** Documentation entry of the top bar: links to the external documentation in a new tab. */
export function DocsMenu() {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger aria-label="Documentation" title="Documentation" className={layoutClasses.iconButton}>
        <CircleHelp aria-hidden className="size-5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className={layoutClasses.menuContent}>
          <DropdownMenu.Item asChild className={layoutClasses.menuItem}>
            <a href={DOCS_URL} target="_blank" rel="noopener noreferrer">
              <BookOpen aria-hidden className="size-4 text-slate-500" />
              <span className="flex-1">{PRODUCT_NAME} documentation</span>
              <ExternalLink aria-hidden className="size-3.5 text-slate-400" />
            </a>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
