import { CONFIG_LINK_TOASTS, RELATIONSHIP_TEXTS } from '@lookout/contracts';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formClasses } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { SearchBox } from '@/components/ui/search-box';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useLinkCandidates, useLinkConfig } from '../api/relationships-api';

export interface LinkConfigDialogProps {
  configId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After a link is made, with its direction from this item. */
  onLinked?: (direction: 'outgoing' | 'incoming') => void;
}

/**
 * Links the item to another (a manual link, config_relationships with selector_id 'manual'):
 * pick an item (at most 50 offered, spec 3 section 9) and the direction. A config must be
 * chosen (spec 3 section 5); success says 'config link successful', a failure the server's
 * message (spec 3 section 8).
 */
export function LinkConfigDialog({ configId, open, onOpenChange, onLinked }: LinkConfigDialogProps) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  const [direction, setDirection] = useState<'outgoing' | 'incoming'>('outgoing');
  const [error, setError] = useState<string>();
  const candidates = useLinkCandidates(configId, search, open);
  const link = useLinkConfig();

  const close = (next: boolean) => {
    if (link.isPending) return;
    if (!next) {
      setChosen('');
      setSearch('');
      setError(undefined);
    }
    onOpenChange(next);
  };

  const submit = () => {
    if (!chosen) {
      setError(RELATIONSHIP_TEXTS.linkRequired);
      return;
    }
    const pair = direction === 'outgoing' ? { from: configId, to: chosen } : { from: chosen, to: configId };
    link.mutate(pair, {
      onSuccess: () => {
        toast.success(CONFIG_LINK_TOASTS.linked);
        onLinked?.(direction);
        close(false);
      },
      onError: toastError,
    });
  };

  return (
    <Modal open={open} onOpenChange={close} title={RELATIONSHIP_TEXTS.linkTitle}>
      <form
        noValidate
        aria-label={RELATIONSHIP_TEXTS.linkTitle}
        className="mt-4 flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <SearchBox value={search} placeholder={RELATIONSHIP_TEXTS.linkSearch} onChange={setSearch} />
        <label className={formClasses.label}>
          {RELATIONSHIP_TEXTS.linkTarget}
          <select
            aria-label={RELATIONSHIP_TEXTS.linkTarget}
            size={8}
            value={chosen}
            onChange={(event) => {
              setChosen(event.target.value);
              setError(undefined);
            }}
            className="mt-1 w-full rounded-md border border-slate-300 bg-white text-sm"
          >
            {(candidates.data ?? []).map((item) => (
              <option key={item.id} value={item.id}>
                {item.name} ({item.type})
              </option>
            ))}
          </select>
        </label>
        {error && (
          <p role="alert" className={formClasses.error}>
            {error}
          </p>
        )}
        <fieldset className="flex flex-col gap-1 text-sm">
          <legend className={formClasses.label}>{RELATIONSHIP_TEXTS.linkDirection}</legend>
          {(['outgoing', 'incoming'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2">
              <input
                type="radio"
                name="link-direction"
                value={value}
                checked={direction === value}
                onChange={() => setDirection(value)}
              />
              {RELATIONSHIP_TEXTS.linkDirections[value]}
            </label>
          ))}
        </fieldset>
        <ModalFooter>
          <Button variant="secondary" onClick={() => close(false)} disabled={link.isPending}>
            {RELATIONSHIP_TEXTS.cancel}
          </Button>
          <Button type="submit" disabled={link.isPending}>
            {RELATIONSHIP_TEXTS.linkSubmit}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
