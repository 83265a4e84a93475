import { EVENT_QUEUE_PAGE_TEXTS, type EventQueueSummaryRow } from '@lookout/contracts';
import { Button } from '@/components/ui/button';
import { Modal, ModalFooter } from '@/components/ui/modal';

export interface EventErrorModalProps {
  /** A row with a most common error. */
  row: EventQueueSummaryRow & { most_common_error: string };
  onClose: () => void;
}

const { error: texts } = EVENT_QUEUE_PAGE_TEXTS;

/** The most common error of one event name's failed events (spec 3 section 2.9). */
export function EventErrorModal({ row, onClose }: EventErrorModalProps) {
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={texts.title}
      description={texts.description(row.name)}
      className="max-w-2xl"
    >
      <pre className="max-h-[60vh] overflow-auto rounded-md bg-red-50 p-3 font-mono text-xs break-all whitespace-pre-wrap text-red-800">
        {row.most_common_error}
      </pre>
      <ModalFooter>
        <Button variant="secondary" onClick={onClose}>
          {texts.close}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
