import {
  AGENT_TOKEN_SHOWN_ONCE_WARNING,
  AGENTS_TEXTS,
  agentInstallSnippets,
  type AgentFormValues,
  type AgentGenerateResponse,
} from '@lookout/contracts';
import { TriangleAlert } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useMemo } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-to-clipboard';
import { Modal, ModalFooter } from '@/components/ui/modal';

const texts = AGENTS_TEXTS.install;

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

function Snippet({ text, label }: { text: string; label: string }) {
  return (
    <div className="relative mt-3">
      <pre
        aria-label={label}
        className="max-h-80 overflow-auto rounded-md bg-slate-900 p-3 pr-10 font-mono text-xs leading-relaxed text-slate-100"
      >
        {text}
      </pre>
      <CopyButton
        text={text}
        label={`Copy ${label}`}
        className="absolute top-2 right-2 bg-slate-800 text-slate-200 hover:bg-slate-700 hover:text-white"
      />
    </div>
  );
}

export interface AgentInstallModalProps {
  created: AgentGenerateResponse;
  form: AgentFormValues;
  /** The address the agent reaches this Lookout at: the console's own origin. */
  upstreamUrl: string;
  onClose: () => void;
}

/**
 * 'Installation Instructions' after an agent is created (spec 2 section 2.6): a Flux manifest
 * and a Helm CLI command for Lookout's chart in agent mode, carrying the access token, which is
 * shown only this once; then the next steps.
 */
export function AgentInstallModal({ created, form, upstreamUrl, onClose }: AgentInstallModalProps) {
  const snippets = useMemo(
    () =>
      agentInstallSnippets({
        upstreamUrl,
        agentName: form.name.trim(),
        accessToken: created.access_token,
        kubernetes: form.kubernetes,
        pushTelemetry: form.pushTelemetry,
      }),
    [created.access_token, form, upstreamUrl],
  );
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={texts.title}
      description={texts.intro(form.name.trim())}
      className="max-w-3xl"
    >
      <p
        role="alert"
        className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-700" />
        {AGENT_TOKEN_SHOWN_ONCE_WARNING}
      </p>
      <Tabs.Root defaultValue="flux" className="mt-4">
        <Tabs.List aria-label={texts.title} className="flex border-b border-slate-200">
          <Tabs.Trigger value="flux" className={tabClass}>
            {texts.flux}
          </Tabs.Trigger>
          <Tabs.Trigger value="helm" className={tabClass}>
            {texts.helm}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="flux">
          <Snippet text={snippets.flux} label={texts.fluxSnippet} />
        </Tabs.Content>
        <Tabs.Content value="helm">
          <Snippet text={snippets.helm} label={texts.helmSnippet} />
        </Tabs.Content>
      </Tabs.Root>
      <h3 className="mt-5 text-sm font-semibold text-slate-900">{texts.nextSteps}</h3>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
        {texts.tips.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ol>
      <ModalFooter>
        <Button onClick={onClose}>{texts.done}</Button>
      </ModalFooter>
    </Modal>
  );
}
