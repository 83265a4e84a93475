import { GITOPS_CHART_CATALOG, GITOPS_FLUX_WARNING, INTEGRATIONS_TEXTS, type GitopsChart } from '@lookout/contracts';
import { TriangleAlert } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useId, useMemo, useState } from 'react';
import { CopyButton } from '@/components/ui/copy-to-clipboard';
import { TextField } from '@/components/ui/form-field';
import { YamlEditor } from '@/components/ui/yaml-editor';
import { checkGitopsForm, initialGitopsInput } from '../lib/gitops-form-fns';

const texts = INTEGRATIONS_TEXTS.modal;

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

/** A generated snippet with a copy button. */
function Snippet({ text, label }: { text: string; label: string }) {
  return (
    <div className="relative">
      <CopyButton text={text} label={`Copy ${label}`} className="absolute top-2 right-2 bg-white" />
      <pre
        aria-label={label}
        className="max-h-72 overflow-auto rounded-md bg-slate-50 p-3 pr-10 font-mono text-xs whitespace-pre text-slate-800"
      >
        {text}
      </pre>
    </div>
  );
}

/**
 * One 'Add via GitOps' option (spec 2 section 2.7): the namespace (default mission-control),
 * the chart's values as YAML checked live against its schema with each problem naming its
 * field, and tabs with the generated Flux manifest and Helm CLI command under the spec's
 * warning. Nothing is created here: the user applies the manifest or runs the command.
 */
export function GitopsForm({ chart }: { chart: GitopsChart }) {
  const problemsId = useId();
  const [input, setInput] = useState(() => initialGitopsInput(chart));
  const state = useMemo(() => checkGitopsForm(chart, input), [chart, input]);
  const descriptor = GITOPS_CHART_CATALOG[chart];
  const hasProblems = state.valueProblems.length > 0;

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-600">
        {descriptor.title}: <span className="font-mono text-xs">{descriptor.chartName}</span>
      </p>
      <TextField
        label={texts.namespace}
        value={input.namespace}
        onChange={(event) => setInput({ ...input, namespace: event.target.value })}
        error={state.namespaceProblem}
        spellCheck={false}
      />
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium text-slate-700">{texts.values}</span>
        <span className="text-xs text-slate-500">{texts.valuesHint}</span>
        <YamlEditor
          value={input.valuesText}
          onChange={(valuesText) => setInput((current) => ({ ...current, valuesText }))}
          label={texts.values}
          describedBy={problemsId}
          className="h-40"
        />
        <div id={problemsId} aria-live="polite">
          {hasProblems ? (
            <ul role="alert" className="flex flex-col gap-0.5 text-sm text-red-700">
              {state.valueProblems.map((problem) => (
                <li key={problem.message}>{problem.message}</li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-emerald-700">{texts.valuesValid}</p>
          )}
        </div>
      </div>
      <p
        role="note"
        className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-700" />
        {GITOPS_FLUX_WARNING}
      </p>
      {state.snippets ? (
        <Tabs.Root defaultValue="flux">
          <Tabs.List aria-label={descriptor.title} className="flex border-b border-slate-200">
            <Tabs.Trigger value="flux" className={tabClass}>
              {texts.flux}
            </Tabs.Trigger>
            <Tabs.Trigger value="helm" className={tabClass}>
              {texts.helm}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="flux" className="pt-2 focus-visible:outline-none">
            <Snippet text={state.snippets.flux} label={texts.flux} />
          </Tabs.Content>
          <Tabs.Content value="helm" className="pt-2 focus-visible:outline-none">
            <Snippet text={state.snippets.helm} label={texts.helm} />
          </Tabs.Content>
        </Tabs.Root>
      ) : (
        <p className="text-sm text-slate-500">{texts.snippetsWhenValid}</p>
      )}
    </div>
  );
}
