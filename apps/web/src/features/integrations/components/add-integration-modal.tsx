import {
  ADD_DIRECTLY_OPTIONS,
  GITOPS_CHARTS,
  GITOPS_CHART_CATALOG,
  INTEGRATIONS_TEXTS,
  NEW_INTEGRATION_ID,
  integrationPath,
  type GitopsChart,
} from '@lookout/contracts';
import { Boxes, ChevronRight, Network, ScrollText, Ship, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { GitopsForm } from './gitops-form';

const texts = INTEGRATIONS_TEXTS.modal;
const DIRECT_ICONS: Record<string, LucideIcon> = { topologies: Network, scrapers: Boxes, logging_backends: ScrollText };

const optionClass =
  'flex w-full items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-left text-sm text-slate-800 hover:border-sky-300 hover:bg-sky-50 focus-visible:outline-2 focus-visible:outline-sky-600';

export interface AddIntegrationModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** False while the logs feature is disabled: 'Log Backends' is not offered (spec 2 section 2.7). */
  showLogBackends: boolean;
}

/**
 * 'Add Integration' (spec 2 section 2.7): 'Add via GitOps' lists the charts, each opening its
 * form (Back returns to the list); 'Add Directly' opens the create form of a topology, a
 * catalog scraper or a log backend, which saves a real row and returns to the integrations.
 */
export function AddIntegrationModal({ open, onOpenChange, showLogBackends }: AddIntegrationModalProps) {
  const [chart, setChart] = useState<GitopsChart>();
  const close = () => {
    setChart(undefined);
    onOpenChange(false);
  };
  const direct = ADD_DIRECTLY_OPTIONS.filter((option) => showLogBackends || option.type !== 'logging_backends');

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={chart ? `${texts.title}: ${GITOPS_CHART_CATALOG[chart].title}` : texts.title}
      className="max-w-2xl"
    >
      {chart ? (
        <GitopsForm key={chart} chart={chart} />
      ) : (
        <div className="flex flex-col gap-5">
          <section aria-labelledby="add-via-gitops" className="flex flex-col gap-2">
            <h3 id="add-via-gitops" className="text-sm font-semibold text-slate-900">
              {texts.gitops}
            </h3>
            <ul className="grid grid-cols-2 gap-2">
              {GITOPS_CHARTS.map((option) => (
                <li key={option}>
                  <button type="button" className={optionClass} onClick={() => setChart(option)}>
                    <Ship aria-hidden className="size-4 shrink-0 text-slate-500" />
                    <span className="flex-1">{GITOPS_CHART_CATALOG[option].title}</span>
                    <ChevronRight aria-hidden className="size-4 text-slate-400" />
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="add-directly" className="flex flex-col gap-2">
            <h3 id="add-directly" className="text-sm font-semibold text-slate-900">
              {texts.directly}
            </h3>
            <ul className="grid grid-cols-2 gap-2">
              {direct.map((option) => {
                const Icon = DIRECT_ICONS[option.type] ?? Network;
                return (
                  <li key={option.type}>
                    <Link to={integrationPath(option.type, NEW_INTEGRATION_ID)} className={optionClass} onClick={close}>
                      <Icon aria-hidden className="size-4 shrink-0 text-slate-500" />
                      <span className="flex-1">{option.title}</span>
                      <ChevronRight aria-hidden className="size-4 text-slate-400" />
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        </div>
      )}
      <ModalFooter>
        {chart && (
          <Button variant="secondary" onClick={() => setChart(undefined)}>
            {texts.back}
          </Button>
        )}
        <Button variant="secondary" onClick={close}>
          {texts.close}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
