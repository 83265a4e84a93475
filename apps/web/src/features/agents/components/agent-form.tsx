import {
  AGENT_SCRAPE_INTERVALS,
  AGENTS_TEXTS,
  VALIDATION_MESSAGES,
  type AgentFormValues,
  type AgentScrapeInterval,
} from '@lookout/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { SelectField, TextField } from '@/components/ui/form-field';
import { KeyValueList } from '@/components/ui/key-value-list';
import { Switch } from '@/components/ui/switch';

const texts = AGENTS_TEXTS.drawer;
const INTERVAL_OPTIONS = AGENT_SCRAPE_INTERVALS.map((interval) => ({ value: interval, label: interval }));

export interface AgentFormProps {
  /** The drawer's id for the form, so the footer's submit button may sit outside it. */
  id: string;
  initial: AgentFormValues;
  /** Edit: the name is read-only (spec 2 section 2.6). */
  isEdit: boolean;
  /** Without write on agents every field is read-only. */
  readOnly: boolean;
  onSubmit: (values: AgentFormValues) => void;
}

/** An option: its switch with the state in words, and its own field under it while enabled. */
function OptionBlock({
  label,
  enabled,
  disabled,
  onEnabledChange,
  children,
}: {
  label: string;
  enabled: boolean;
  disabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 rounded-md border border-slate-200 p-3">
      <div className="flex items-center justify-between gap-2">
        <Switch label={label} checked={enabled} disabled={disabled} onCheckedChange={onEnabledChange} />
        <span className="text-xs text-slate-500">{enabled ? texts.enabled : texts.disabled}</span>
      </div>
      {enabled && children}
    </div>
  );
}

/**
 * The agent drawer's fields (spec 2 section 2.6): Name, Properties (a label map), Kubernetes
 * with its Scrape Interval, Telemetry with its Label. Name is required (spec 2 section 5).
 */
export function AgentForm({ id, initial, isEdit, readOnly, onSubmit }: AgentFormProps) {
  const [values, setValues] = useState<AgentFormValues>(initial);
  const [nameError, setNameError] = useState<string>();
  const disabled = readOnly;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (values.name.trim() === '') {
      setNameError(VALIDATION_MESSAGES.required);
      return;
    }
    onSubmit(values);
  };

  return (
    <form id={id} onSubmit={submit} noValidate className="flex flex-col gap-5">
      <TextField
        label={texts.name}
        value={values.name}
        readOnly={isEdit || readOnly}
        required
        {...(nameError ? { error: nameError } : {})}
        onChange={(event) => {
          setNameError(undefined);
          setValues({ ...values, name: event.target.value });
        }}
        className="read-only:bg-slate-50 read-only:text-slate-600"
      />
      <KeyValueList
        label={texts.properties}
        pairs={Object.entries(values.properties).map(([key, value]) => ({ key, value }))}
        readOnly={readOnly}
        onChange={(pairs) =>
          setValues({ ...values, properties: Object.fromEntries(pairs.map((pair) => [pair.key.trim(), pair.value])) })
        }
      />
      <OptionBlock
        label={texts.kubernetes}
        enabled={values.kubernetes.enabled}
        disabled={disabled}
        onEnabledChange={(enabled) => setValues({ ...values, kubernetes: { ...values.kubernetes, enabled } })}
      >
        <SelectField
          label={texts.scrapeInterval}
          options={INTERVAL_OPTIONS}
          value={values.kubernetes.interval}
          disabled={disabled}
          onChange={(event) =>
            setValues({
              ...values,
              kubernetes: { ...values.kubernetes, interval: event.target.value as AgentScrapeInterval },
            })
          }
        />
      </OptionBlock>
      <OptionBlock
        label={texts.telemetry}
        enabled={values.pushTelemetry.enabled}
        disabled={disabled}
        onEnabledChange={(enabled) => setValues({ ...values, pushTelemetry: { ...values.pushTelemetry, enabled } })}
      >
        <TextField
          label={texts.telemetryLabel}
          value={values.pushTelemetry.topologyName}
          readOnly={readOnly}
          maxLength={255}
          onChange={(event) =>
            setValues({ ...values, pushTelemetry: { ...values.pushTelemetry, topologyName: event.target.value } })
          }
        />
      </OptionBlock>
    </form>
  );
}
