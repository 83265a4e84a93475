import { HEALTH_PAGE_TEXTS, TRISTATE, type TristateValue } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Minus, Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { FacetDropdown } from '@/components/ui/facet-dropdown';
import { Switch } from '@/components/ui/switch';
import type { LabelFilterGroup } from '../lib/health-check-fns';
import type { LabelFilterState } from '../lib/health-params';

export interface HealthFilterPanelProps {
  hidePassing: boolean;
  onHidePassingChange: (hidePassing: boolean) => void;
  labelGroups: readonly LabelFilterGroup[];
  labels: LabelFilterState;
  onLabelsChange: (labels: LabelFilterState) => void;
}

function setLabelState(labels: LabelFilterState, id: string, state: TristateValue): LabelFilterState {
  const { [id]: _previous, ...rest } = labels;
  return state === TRISTATE.none ? rest : { ...rest, [id]: state };
}

const sectionTitle = 'mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase';

/** Include/exclude buttons of a boolean label; pressing the active one clears it. */
function BooleanLabelToggle({
  labelKey,
  state,
  onChange,
}: {
  labelKey: string;
  state: TristateValue;
  onChange: (state: TristateValue) => void;
}) {
  const button = (target: TristateValue, label: string, icon: ReactNode) => (
    <button
      type="button"
      aria-pressed={state === target}
      aria-label={`${label} ${labelKey}`}
      title={`${label} ${labelKey}`}
      onClick={() => onChange(state === target ? TRISTATE.none : target)}
      className={clsx(
        'inline-flex size-6 items-center justify-center focus-visible:outline-2 focus-visible:outline-sky-600',
        state === target
          ? target === TRISTATE.include
            ? 'bg-green-600 text-white'
            : 'bg-red-600 text-white'
          : 'bg-white text-slate-500 hover:bg-slate-100',
      )}
    >
      {icon}
    </button>
  );
  return (
    <div className="flex items-center justify-between gap-2">
      <span className="min-w-0 truncate text-sm text-slate-700" title={labelKey}>
        {labelKey}
      </span>
      <div className="flex shrink-0 divide-x divide-slate-300 overflow-hidden rounded border border-slate-300">
        {button(TRISTATE.exclude, 'Exclude', <Minus aria-hidden className="size-3.5" />)}
        {button(TRISTATE.include, 'Include', <Plus aria-hidden className="size-3.5" />)}
      </div>
    </div>
  );
}

/**
 * The dashboard's left panel (spec 2 section 2.2): 'Filter by Health' with Hide Passing, and
 * 'Filter by Label' with a toggle per boolean label and a multi-select per other label key.
 */
export function HealthFilterPanel({
  hidePassing,
  onHidePassingChange,
  labelGroups,
  labels,
  onLabelsChange,
}: HealthFilterPanelProps) {
  return (
    <aside aria-label="Filters" className="flex w-full flex-col gap-6 lg:w-60 lg:shrink-0">
      <section>
        <h2 className={sectionTitle}>{HEALTH_PAGE_TEXTS.filterByHealth}</h2>
        <Switch label={HEALTH_PAGE_TEXTS.hidePassing} checked={hidePassing} onCheckedChange={onHidePassingChange} />
      </section>
      <section>
        <h2 className={sectionTitle}>{HEALTH_PAGE_TEXTS.filterByLabel}</h2>
        {labelGroups.length === 0 ? (
          <p className="text-sm text-slate-500">{HEALTH_PAGE_TEXTS.noLabels}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {labelGroups.map((group) => (
              <li key={group.key}>
                {group.kind === 'toggle' ? (
                  <BooleanLabelToggle
                    labelKey={group.key}
                    state={labels[group.id] ?? TRISTATE.none}
                    onChange={(state) => onLabelsChange(setLabelState(labels, group.id, state))}
                  />
                ) : (
                  <FacetDropdown
                    label={group.key}
                    className="w-full"
                    options={group.labels.map((label) => ({ value: label.id, label: label.value }))}
                    value={group.labels.filter((label) => labels[label.id] === TRISTATE.include).map((l) => l.id)}
                    onChange={(selected) => {
                      let next = labels;
                      for (const label of group.labels) {
                        const included = selected.includes(label.id);
                        if (included) next = setLabelState(next, label.id, TRISTATE.include);
                        else if (next[label.id] === TRISTATE.include)
                          next = setLabelState(next, label.id, TRISTATE.none);
                      }
                      onLabelsChange(next);
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </aside>
  );
}
