import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_REPEAT_INTERVAL_LABELS,
  NOTIFICATION_REPEAT_INTERVALS,
  NOTIFICATION_RULES_TEXTS,
  type NotificationRule,
} from '@lookout/contracts';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SelectField, TextAreaField, TextField, formClasses } from '@/components/ui/form-field';
import { ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { useDeleteRule } from '../api/delete-rule';
import { useSaveRule } from '../api/save-rule';
import {
  isRuleEditable,
  ruleFormValues,
  rulePayload,
  switchRecipient,
  validateRuleForm,
  type RuleFormErrors,
  type RuleFormValues,
} from '../lib/rule-form-fns';
import { RecipientTabs } from './recipient-tabs';
import { RuleEventsField } from './rule-events-field';

const texts = NOTIFICATION_RULES_TEXTS.form;
const REPEAT_OPTIONS = NOTIFICATION_REPEAT_INTERVALS.map((value) => ({
  value,
  label: `${value} (${NOTIFICATION_REPEAT_INTERVAL_LABELS[value]})`,
}));

export interface RuleFormProps {
  /** The rule to edit; absent to create one. */
  rule?: NotificationRule | undefined;
  /** Write on notifications (spec 3 section 6). */
  canWrite: boolean;
  /** The signed-in user, recorded as `created_by` of a new rule. */
  currentUserId: string;
  onDone: () => void;
}

/**
 * The create and edit form (spec 3 sections 2.10 and 3): title, events, CEL filter, the
 * recipient tabs, repeat interval, template (Default or a custom Markdown one) and properties.
 * Without write, or for a rule another source owns, it is read-only.
 */
export function RuleForm({ rule, canWrite, currentUserId, onDone }: RuleFormProps) {
  const [values, setValues] = useState<RuleFormValues>(() => ruleFormValues(rule));
  const [errors, setErrors] = useState<RuleFormErrors>({});
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const save = useSaveRule();
  const remove = useDeleteRule();
  const editable = canWrite && isRuleEditable(rule);
  const disabled = !editable || save.isPending;
  const set = (change: Partial<RuleFormValues>) => setValues((current) => ({ ...current, ...change }));

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const problems = validateRuleForm(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const payload = rulePayload(values);
    save.mutate(
      rule ? { kind: 'update', id: rule.id, payload } : { kind: 'create', payload, createdBy: currentUserId },
      {
        onSuccess: () => {
          toast.success(rule ? NOTIFICATION_MESSAGES.ruleUpdated : NOTIFICATION_MESSAGES.ruleCreated);
          onDone();
        },
        onError: (error) => toast.error(error.message),
      },
    );
  };

  const onDelete = () => {
    if (!rule) return;
    remove.mutate(rule.id, {
      onSuccess: () => {
        toast.success(NOTIFICATION_MESSAGES.ruleDeleted);
        setConfirmingDelete(false);
        onDone();
      },
      onError: (error) => toast.error(error.message),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {rule && !isRuleEditable(rule) && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{texts.readOnly(rule.source ?? '')}</p>
      )}
      {rule?.error && (
        <p role="status" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {NOTIFICATION_RULES_TEXTS.filterError}: {rule.error}
        </p>
      )}
      <TextField
        label={texts.title}
        value={values.title}
        onChange={(event) => set({ title: event.target.value })}
        disabled={disabled}
        {...(errors.title ? { error: errors.title } : {})}
      />
      <RuleEventsField
        value={values.events}
        onChange={(events) => set({ events })}
        error={errors.events}
        disabled={disabled}
      />
      <TextField
        label={texts.filter}
        hint={texts.filterHint}
        value={values.filter}
        onChange={(event) => set({ filter: event.target.value })}
        disabled={disabled}
        className="font-mono"
      />
      <RecipientTabs
        values={values}
        onSwitch={(kind) => setValues((current) => switchRecipient(current, kind))}
        onChange={set}
        error={errors.recipient}
        disabled={disabled}
      />
      <SelectField
        label={texts.repeatInterval}
        placeholder={texts.noRepeatInterval}
        options={REPEAT_OPTIONS}
        value={values.repeat_interval}
        onChange={(event) => set({ repeat_interval: event.target.value })}
        disabled={disabled}
      />
      <fieldset>
        <legend className={formClasses.label}>{texts.template}</legend>
        <div className="mt-1 flex gap-4">
          {(['default', 'custom'] as const).map((mode) => (
            <label key={mode} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="templateMode"
                checked={values.templateMode === mode}
                onChange={() => set({ templateMode: mode })}
                disabled={disabled}
              />
              {mode === 'default' ? texts.templateDefault : texts.templateCustom}
            </label>
          ))}
        </div>
        {values.templateMode === 'custom' && (
          <div className="mt-2">
            <TextAreaField
              label={texts.templateCustom}
              hint={texts.templateHint}
              rows={6}
              value={values.template}
              onChange={(event) => set({ template: event.target.value })}
              disabled={disabled}
              className="font-mono"
            />
          </div>
        )}
      </fieldset>
      <TextAreaField
        label={texts.properties}
        hint={texts.propertiesHint}
        rows={4}
        value={values.properties}
        onChange={(event) => set({ properties: event.target.value })}
        disabled={disabled}
        className="font-mono"
        {...(errors.properties ? { error: errors.properties } : {})}
      />
      <ModalFooter>
        {rule && editable && (
          <Button variant="danger" onClick={() => setConfirmingDelete(true)} className="mr-auto">
            {texts.delete}
          </Button>
        )}
        <Button variant="secondary" onClick={onDone}>
          {texts.cancel}
        </Button>
        {editable && (
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? texts.saving : rule ? texts.update : texts.save}
          </Button>
        )}
      </ModalFooter>
      <ConfirmDialog
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        title={NOTIFICATION_RULES_TEXTS.deleteConfirm.title}
        description={NOTIFICATION_RULES_TEXTS.deleteConfirm.description}
        onConfirm={onDelete}
        isPending={remove.isPending}
      />
    </form>
  );
}
