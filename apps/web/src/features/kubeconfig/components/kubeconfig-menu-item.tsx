import { KUBECONFIG_TEXTS } from '@lookout/contracts';
import { FileKey } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { layoutClasses } from '@/components/layout/layout-classes';

/**
 * 'Download kubeconfig' in the user menu: opens the dialog, which lives outside the menu
 * (the menu unmounts as it closes).
 */
export function KubeconfigMenuItem({ onOpen }: { onOpen: () => void }) {
  return (
    <DropdownMenu.Item className={layoutClasses.menuItem} onSelect={onOpen}>
      <FileKey aria-hidden className="size-4 text-slate-500" />
      {KUBECONFIG_TEXTS.menuEntry}
    </DropdownMenu.Item>
  );
}
