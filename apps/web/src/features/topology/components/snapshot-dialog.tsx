import { TOPOLOGY_SNAPSHOT_RANGES, TOPOLOGY_TEXTS } from '@lookout/contracts';
import { Download, LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast';
import { downloadSnapshot } from '../api/snapshot';

const texts = TOPOLOGY_TEXTS.snapshot;

/**
 * 'Download {name} snapshot' (spec 3 section 2.2): a time range (the first option by default)
 * and 'Include related components'; saves `<name>-snapshot.zip`, or says 'Error downloading file'.
 */
export function SnapshotDialog({
  component,
  open,
  onOpenChange,
}: {
  component: { id: string; name: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const rangeId = useId();
  const [start, setStart] = useState<string>(TOPOLOGY_SNAPSHOT_RANGES[0].value);
  const [related, setRelated] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    try {
      await downloadSnapshot(component, start, related);
      onOpenChange(false);
    } catch {
      toast.error(texts.error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={texts.title(component.name)} className="max-w-sm">
      {/* Not a <form>: inside one, Radix's Switch adds a hidden input that measures itself. */}
      <div className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={rangeId} className="text-sm font-medium text-slate-700">
            {texts.timeRange}
          </label>
          <select
            id={rangeId}
            value={start}
            onChange={(event) => setStart(event.target.value)}
            className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
          >
            {TOPOLOGY_SNAPSHOT_RANGES.map((range) => (
              <option key={range.value} value={range.value}>
                {range.label}
              </option>
            ))}
          </select>
        </div>
        <Switch label={texts.related} checked={related} onCheckedChange={setRelated} />
        <ModalFooter>
          <Button onClick={() => void submit()} disabled={busy}>
            {busy ? (
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
            ) : (
              <Download aria-hidden className="size-4" />
            )}
            {busy ? texts.downloading : texts.download}
          </Button>
        </ModalFooter>
      </div>
    </Modal>
  );
}
