import {
  GITOPS_CHART_CATALOG,
  GITOPS_DEFAULT_NAMESPACE,
  INTEGRATIONS_TEXTS,
  gitopsSnippets,
  namespaceProblem,
  validateValues,
  type FieldProblem,
  type GitopsChart,
  type InstallSnippets,
} from '@lookout/contracts';
import { parse, stringify } from 'yaml';

/** What the user has typed into an 'Add via GitOps' form. */
export interface GitopsFormInput {
  namespace: string;
  valuesText: string;
}

/** The form checked: its problems, and the snippets once there are none. */
export interface GitopsFormState {
  namespaceProblem: string | undefined;
  /** The values' problems, each naming its field (`region[0]: is required`). */
  valueProblems: FieldProblem[];
  /** Only while namespace and values are both valid. */
  snippets: InstallSnippets | undefined;
}

/** The form a chart opens with: the default namespace and the chart's example values. */
export function initialGitopsInput(chart: GitopsChart): GitopsFormInput {
  const example = GITOPS_CHART_CATALOG[chart].exampleValues;
  return {
    namespace: GITOPS_DEFAULT_NAMESPACE,
    valuesText: Object.keys(example).length > 0 ? stringify(example) : '',
  };
}

/** The values as the chart receives them, or the YAML's problem; empty text is no override. */
function parseValues(text: string): { values: unknown } | { problem: FieldProblem } {
  if (text.trim() === '') return { values: {} };
  try {
    return { values: parse(text) ?? {} };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return {
      problem: { path: 'document', reason, message: INTEGRATIONS_TEXTS.modal.valuesUnreadable(reason) },
    };
  }
}

/**
 * Checks the form live (spec 2 section 2.7): the namespace as a Kubernetes name, the values
 * as YAML against the chart's values schema; with neither wrong, the Flux manifest and the
 * Helm command (interval 30m, the spec's GitOps default).
 */
export function checkGitopsForm(chart: GitopsChart, input: GitopsFormInput): GitopsFormState {
  const problem = namespaceProblem(input.namespace);
  const namespace = problem === undefined ? undefined : INTEGRATIONS_TEXTS.modal.namespaceProblem(problem);
  const parsed = parseValues(input.valuesText);
  const valueProblems = 'problem' in parsed ? [parsed.problem] : validateValues(chart, parsed.values);
  const snippets =
    namespace === undefined && valueProblems.length === 0 && 'values' in parsed
      ? gitopsSnippets({
          chart,
          namespace: input.namespace,
          values: parsed.values as Record<string, unknown>,
        })
      : undefined;
  return { namespaceProblem: namespace, valueProblems, snippets };
}
