import {
  CONNECTIONS_PAGE_TEXTS,
  CONNECTION_GROUP_LABELS,
  CONNECTION_TYPE_LABELS,
  connectionGroupOf,
  isEditableConnection,
} from '@lookout/contracts';
import type { ConnectionRow, ConnectionType } from '@lookout/contracts';
import { useState } from 'react';
import { Modal } from '@/components/ui/modal';
import { ConnectionForm } from './connection-form';
import { ConnectionIcon } from './connection-icon';
import { ConnectionTypePicker } from './connection-type-picker';

export interface ConnectionDialogProps {
  /** The connection to show or edit; absent to add one. */
  row?: ConnectionRow;
  canWrite: boolean;
  currentUserId: string;
  onClose: () => void;
}

function TypeLine({ type }: { type: ConnectionType }) {
  return (
    <span className="flex items-center gap-2">
      <ConnectionIcon type={type} />
      <span>
        {CONNECTION_TYPE_LABELS[type]} · {CONNECTION_GROUP_LABELS[connectionGroupOf(type)]}
      </span>
    </span>
  );
}

/**
 * Adding asks for the type first, then shows that type's form; an existing connection opens
 * straight in its form (spec 3 section 2.7).
 */
export function ConnectionDialog({ row, canWrite, currentUserId, onClose }: ConnectionDialogProps) {
  const [type, setType] = useState<ConnectionType | undefined>(row?.type);
  const [busy, setBusy] = useState(false);
  const editable = canWrite && (!row || isEditableConnection(row));
  const title = row
    ? editable
      ? 'Edit Connection'
      : 'Connection'
    : type
      ? CONNECTIONS_PAGE_TEXTS.add
      : CONNECTIONS_PAGE_TEXTS.chooseType;

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title={title}
      description={type ? <TypeLine type={type} /> : undefined}
      className="max-w-2xl"
    >
      {type ? (
        <ConnectionForm
          // A new type is a new form: its own fields and defaults.
          key={type}
          type={type}
          row={row}
          canWrite={canWrite}
          currentUserId={currentUserId}
          onBack={row ? undefined : () => setType(undefined)}
          onClose={onClose}
          onBusyChange={setBusy}
        />
      ) : (
        <ConnectionTypePicker onChoose={setType} />
      )}
    </Modal>
  );
}
