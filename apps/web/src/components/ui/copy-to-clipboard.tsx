import { CLIPBOARD_MESSAGES } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Check, Copy } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '@/components/ui/toast';

/** How long the copy button shows its check mark. */
const COPIED_FEEDBACK_MS = 2_000;

/**
 * Writes `text` to the clipboard and toasts the outcome with the texts of spec 1, section 8.
 * Resolves to whether the text was copied; it never rejects.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  // The Clipboard API exists only in secure contexts (https or localhost).
  if (typeof navigator === 'undefined' || typeof navigator.clipboard?.writeText !== 'function') {
    toast.error(CLIPBOARD_MESSAGES.unavailable);
    return false;
  }
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    toast.error(CLIPBOARD_MESSAGES.failed);
    return false;
  }
  toast.success(CLIPBOARD_MESSAGES.copied);
  return true;
}

/** {@link copyToClipboard} plus a `copied` flag that stays true for two seconds after a copy. */
export function useCopyToClipboard(): { copy: (text: string) => Promise<boolean>; copied: boolean } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (text: string) => {
    const ok = await copyToClipboard(text);
    if (ok) {
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    }
    return ok;
  }, []);

  return { copy, copied };
}

/** Props of {@link CopyButton}. */
export type CopyButtonProps = {
  /** The text to copy. */
  text: string;
  /** Accessible name and tooltip; 'Copy to clipboard' by default. */
  label?: string;
  className?: string;
};

/** Small icon button that copies `text`; the icon turns into a check mark after a copy. */
export function CopyButton({ text, label = 'Copy to clipboard', className }: CopyButtonProps) {
  const { copy, copied } = useCopyToClipboard();
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={(event) => {
        // Copy buttons often sit inside clickable rows; copying must not open the row.
        event.stopPropagation();
        void copy(text);
      }}
      className={clsx(
        'inline-flex size-6 items-center justify-center rounded text-gray-500 hover:bg-gray-100 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500',
        className,
      )}
    >
      {copied ? <Check aria-hidden className="size-3.5 text-green-600" /> : <Copy aria-hidden className="size-3.5" />}
    </button>
  );
}
