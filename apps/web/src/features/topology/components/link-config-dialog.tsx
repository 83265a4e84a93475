import { TOPOLOGY_LOOKUP_DEBOUNCE_MS, TOPOLOGY_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useConfigOptions, useLinkConfig, type ConfigOption } from '../api/config-link';

const texts = TOPOLOGY_TEXTS.link;

/**
 * 'Link to Catalog' (spec 3 sections 2.2, 5 and 8): a searchable picker of at most 50 catalog
 * items; one must be chosen; 'config link successful', or the server's error.
 */
export function LinkConfigDialog({ component, onClose }: { component: { id: string }; onClose: () => void }) {
  const searchId = useId();
  const errorId = useId();
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<ConfigOption | null>(null);
  const [tried, setTried] = useState(false);
  const options = useConfigOptions(useDebouncedValue(text, TOPOLOGY_LOOKUP_DEBOUNCE_MS));
  const link = useLinkConfig(component.id);

  const submit = () => {
    setTried(true);
    if (!selected) return;
    link.mutate(selected.id, {
      onSuccess: () => {
        toast.success(texts.success);
        onClose();
      },
      onError: toastError,
    });
  };

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={texts.title} className="max-w-md">
      <div className="flex flex-col gap-2">
        <label htmlFor={searchId} className="text-sm font-medium text-slate-700">
          {texts.catalog}
        </label>
        <input
          id={searchId}
          type="search"
          value={text}
          placeholder={texts.search}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={tried && !selected ? errorId : undefined}
          className="h-9 rounded-md border border-slate-300 px-2 text-sm"
        />
        <ul
          role="listbox"
          aria-label={texts.catalog}
          className="max-h-64 overflow-y-auto rounded-md border border-slate-200"
        >
          {(options.data ?? []).map((option) => (
            <li
              key={option.id}
              role="option"
              aria-selected={selected?.id === option.id}
              tabIndex={0}
              onClick={() => setSelected(option)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  setSelected(option);
                }
              }}
              className={clsx(
                'flex cursor-pointer items-center justify-between gap-2 px-2 py-1.5 text-sm hover:bg-slate-50',
                selected?.id === option.id && 'bg-sky-50 font-medium',
              )}
            >
              <span className="truncate">{option.name ?? option.id}</span>
              <span className="shrink-0 text-xs text-slate-500">{option.type}</span>
            </li>
          ))}
          {options.isSuccess && options.data.length === 0 && (
            <li className="px-2 py-1.5 text-sm text-slate-500">{texts.noMatches}</li>
          )}
        </ul>
        {tried && !selected && (
          <p id={errorId} role="alert" className="text-sm text-red-600">
            {texts.required}
          </p>
        )}
      </div>
      <ModalFooter>
        <Button onClick={submit} disabled={link.isPending}>
          {link.isPending ? texts.submitting : texts.submit}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
