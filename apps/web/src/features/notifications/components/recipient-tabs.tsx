import {
  NOTIFICATION_RECIPIENT_KINDS,
  NOTIFICATION_RECIPIENT_LABELS,
  NOTIFICATION_RULES_TEXTS,
  type NotificationRecipientKind,
} from '@lookout/contracts';
import { Tabs } from 'radix-ui';
import { SelectField, formClasses } from '@/components/ui/form-field';
import { useRecipientOptions, type RecipientListKind, type RecipientOption } from '../api/get-recipient-options';
import type { RuleFormValues } from '../lib/rule-form-fns';

const texts = NOTIFICATION_RULES_TEXTS.form;

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

/** Options with the value the rule already has kept, so an unlisted one is not silently lost. */
function withCurrent(options: readonly RecipientOption[], current: string, valueOf: (o: RecipientOption) => string) {
  const list = options.map((option) => ({ value: valueOf(option), label: option.label }));
  if (current && !list.some((option) => option.value === current)) list.unshift({ value: current, label: current });
  return list;
}

interface RecipientSelectProps {
  list: RecipientListKind;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  disabled: boolean;
}

function RecipientSelect({ list, label, placeholder, value, onChange, error, disabled }: RecipientSelectProps) {
  const options = useRecipientOptions(list);
  // A connection is stored by reference (connection://ns/name); people and teams by id. An
  // older rule may name its connection by id: that still selects it.
  const valueOf = (option: RecipientOption) => option.reference ?? option.id;
  const selected = options.data?.find((option) => option.id === value)?.reference ?? value;
  return (
    <div className="flex flex-col gap-1">
      <SelectField
        label={label}
        placeholder={options.isPending ? 'Loading' : placeholder}
        options={withCurrent(options.data ?? [], selected, valueOf)}
        value={selected}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        {...(error ? { error } : {})}
      />
      {list === 'connection' && options.data?.length === 0 && <p className={formClasses.hint}>{texts.noConnections}</p>}
    </div>
  );
}

export interface RecipientTabsProps {
  values: RuleFormValues;
  onSwitch: (kind: NotificationRecipientKind) => void;
  onChange: (change: Partial<Pick<RuleFormValues, 'person_id' | 'team_id' | 'connection'>>) => void;
  error?: string | undefined;
  disabled: boolean;
}

/**
 * Recipient: Person, Team or Others (a notification connection). Switching tab clears the
 * other tabs' choice (spec 3 section 4), so a rule has exactly one recipient.
 */
export function RecipientTabs({ values, onSwitch, onChange, error, disabled }: RecipientTabsProps) {
  return (
    <div>
      <span className={formClasses.label}>{texts.recipient}</span>
      <Tabs.Root
        value={values.recipientKind}
        onValueChange={(kind) => onSwitch(kind as NotificationRecipientKind)}
        className="mt-1 rounded-md border border-slate-300"
      >
        <Tabs.List aria-label={texts.recipient} className="flex border-b border-slate-200 px-2">
          {NOTIFICATION_RECIPIENT_KINDS.map((kind) => (
            <Tabs.Trigger key={kind} value={kind} className={tabClass} disabled={disabled}>
              {NOTIFICATION_RECIPIENT_LABELS[kind]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="person" className="p-3">
          <RecipientSelect
            list="person"
            label={texts.person}
            placeholder={texts.choosePerson}
            value={values.person_id}
            onChange={(person_id) => onChange({ person_id })}
            error={error}
            disabled={disabled}
          />
        </Tabs.Content>
        <Tabs.Content value="team" className="p-3">
          <RecipientSelect
            list="team"
            label={texts.team}
            placeholder={texts.chooseTeam}
            value={values.team_id}
            onChange={(team_id) => onChange({ team_id })}
            error={error}
            disabled={disabled}
          />
        </Tabs.Content>
        <Tabs.Content value="custom" className="p-3">
          <RecipientSelect
            list="connection"
            label={texts.connection}
            placeholder={texts.chooseConnection}
            value={values.connection}
            onChange={(connection) => onChange({ connection })}
            error={error}
            disabled={disabled}
          />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
