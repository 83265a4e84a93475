import { DOCS_URL, KUBECONFIG_FILE_NAME, KUBECONFIG_TEXTS, kubectlCommand } from '@lookout/contracts';
import { Download, ExternalLink } from 'lucide-react';
import { Button, buttonClasses } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-to-clipboard';
import { Modal, ModalFooter } from '@/components/ui/modal';

export interface KubeconfigDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Where the browser fetches the file (a new token each time; ui-calls section 3.16). */
export const KUBECONFIG_URL = '/api/kubeconfig';

/**
 * 'Download and install kubeconfig' (spec 1 section 2.3): a button downloading the file from
 * /api/kubeconfig, a copyable command that lists canaries with it, 'Learn more' and Close.
 */
export function KubeconfigDialog({ open, onOpenChange }: KubeconfigDialogProps) {
  const command = kubectlCommand();
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={KUBECONFIG_TEXTS.title} className="max-w-xl">
      <ol className="list-decimal space-y-4 pl-5 text-sm text-slate-700">
        <li>
          <p>{KUBECONFIG_TEXTS.downloadStep}</p>
          <a href={KUBECONFIG_URL} download={KUBECONFIG_FILE_NAME} className={buttonClasses('primary', 'mt-2 gap-2')}>
            <Download aria-hidden className="size-4" />
            {KUBECONFIG_TEXTS.download}
          </a>
        </li>
        <li>
          <p>{KUBECONFIG_TEXTS.commandStep}</p>
          <div className="mt-2 flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50 py-1.5 pr-1.5 pl-3">
            <code className="min-w-0 flex-1 truncate font-mono text-xs text-slate-800" title={command}>
              {command}
            </code>
            <CopyButton text={command} label="Copy command" />
          </div>
        </li>
      </ol>
      <ModalFooter className="justify-between">
        <a
          href={`${DOCS_URL}/kubeconfig.md`}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-sm text-sky-700 hover:underline"
        >
          {KUBECONFIG_TEXTS.learnMore}
          <ExternalLink aria-hidden className="size-3.5" />
        </a>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {KUBECONFIG_TEXTS.close}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
