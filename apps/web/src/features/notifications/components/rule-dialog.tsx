import { NOTIFICATION_RULES_TEXTS } from '@lookout/contracts';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { Modal } from '@/components/ui/modal';
import { useRule } from '../api/get-rule';
import { RuleForm } from './rule-form';

export interface RuleDialogProps {
  /** The rule to edit; absent to create one. */
  ruleId?: string | undefined;
  canWrite: boolean;
  currentUserId: string;
  onClose: () => void;
}

/** 'Create Notification' or 'Edit Notification': the rule form in a modal, the rule read afresh. */
export function RuleDialog({ ruleId, canWrite, currentUserId, onClose }: RuleDialogProps) {
  const rule = useRule(ruleId);
  const title = ruleId ? NOTIFICATION_RULES_TEXTS.editTitle : NOTIFICATION_RULES_TEXTS.createTitle;
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={title} className="max-w-2xl">
      {ruleId === undefined ? (
        <RuleForm canWrite={canWrite} currentUserId={currentUserId} onDone={onClose} />
      ) : rule.isPending ? (
        <p className="text-sm text-slate-500">Loading</p>
      ) : rule.isError ? (
        <ErrorPanel error={rule.error} onRetry={() => void rule.refetch()} />
      ) : rule.data ? (
        <RuleForm rule={rule.data} canWrite={canWrite} currentUserId={currentUserId} onDone={onClose} />
      ) : (
        <p className="text-sm text-slate-600">{NOTIFICATION_RULES_TEXTS.notFound}</p>
      )}
    </Modal>
  );
}
