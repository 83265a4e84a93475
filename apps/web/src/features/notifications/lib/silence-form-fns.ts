import {
  NOTIFICATION_MESSAGES,
  type SILENCE_DURATIONS,
  SILENCE_FORM_TEXTS,
  SILENCE_RESOURCE_COLUMNS,
  SILENCE_RESOURCE_KINDS,
  type SilenceRequest,
  type SilenceResourceKind,
} from '@lookout/contracts';

export type SilenceDuration = (typeof SILENCE_DURATIONS)[number];

/** What the add-silence form edits. */
export interface SilenceFormValues {
  kind: SilenceResourceKind;
  ids: Record<SilenceResourceKind, string>;
  recursive: boolean;
  /** A length from now, or a window between two local times. */
  mode: 'relative' | 'absolute';
  duration: SilenceDuration;
  /** `datetime-local` values. */
  from: string;
  until: string;
  description: string;
}

/** The kinds in the order the form's switch shows them (the original's: Catalog first). */
export const SILENCE_KIND_ORDER: readonly SilenceResourceKind[] = ['config', 'component', 'check', 'canary'];

/**
 * The form prefilled from the address (spec 3 section 2.10: component_id, config_id, check_id,
 * canary_id). The kind is the first prefilled one in the original's order (component, config,
 * check, canary), Catalog when none is.
 */
export function silenceFormValues(params: URLSearchParams): SilenceFormValues {
  const ids = Object.fromEntries(
    SILENCE_RESOURCE_KINDS.map((kind) => [kind, params.get(SILENCE_RESOURCE_COLUMNS[kind])?.trim() ?? '']),
  ) as Record<SilenceResourceKind, string>;
  const kind = SILENCE_RESOURCE_KINDS.find((candidate) => ids[candidate] !== '') ?? 'config';
  return {
    kind,
    ids,
    recursive: false,
    mode: 'relative',
    duration: '1h',
    from: '',
    until: '',
    description: '',
  };
}

/** Switching the resource kind clears the other kinds' ids (spec 3 section 4). */
export function switchSilenceKind(values: SilenceFormValues, kind: SilenceResourceKind): SilenceFormValues {
  const ids = Object.fromEntries(
    SILENCE_RESOURCE_KINDS.map((candidate) => [candidate, candidate === kind ? values.ids[candidate] : '']),
  ) as Record<SilenceResourceKind, string>;
  return { ...values, kind, ids };
}

export type SilenceFormErrors = Partial<Record<'resource' | 'until', string>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const localTime = (value: string) => (value ? new Date(value) : undefined);

/** The form's problems (spec 3 section 5: a resource is required); empty when it can be sent. */
export function validateSilenceForm(values: SilenceFormValues): SilenceFormErrors {
  const errors: SilenceFormErrors = {};
  const id = values.ids[values.kind];
  if (!id) errors.resource = NOTIFICATION_MESSAGES.required;
  else if (!UUID.test(id)) errors.resource = SILENCE_FORM_TEXTS.validation.resourceId;
  if (values.mode === 'absolute') {
    const until = localTime(values.until);
    const from = localTime(values.from) ?? new Date();
    if (!until || Number.isNaN(until.getTime())) errors.until = NOTIFICATION_MESSAGES.required;
    else if (until <= from) errors.until = SILENCE_FORM_TEXTS.validation.window;
  }
  return errors;
}

/**
 * The request of valid values: only the chosen kind's id, and the window as the original sends
 * it: `from: now`, `until: now+<dur>` for a length, ISO times for a window.
 */
export function silenceRequest(values: SilenceFormValues): SilenceRequest {
  const window =
    values.mode === 'relative'
      ? { from: 'now', until: `now+${values.duration}` }
      : {
          from: localTime(values.from)?.toISOString() ?? 'now',
          until: localTime(values.until)?.toISOString() ?? '',
        };
  const description = values.description.trim();
  return {
    [SILENCE_RESOURCE_COLUMNS[values.kind]]: values.ids[values.kind],
    recursive: values.recursive,
    ...window,
    ...(description ? { description } : {}),
  };
}
