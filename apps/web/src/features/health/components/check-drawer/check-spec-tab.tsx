import { CHECK_DRAWER_TEXTS, type CheckDetailRow } from '@lookout/contracts';
import { stringify } from 'yaml';
import { CopyButton } from '@/components/ui/copy-to-clipboard';

export interface CheckSpecTabProps {
  check: CheckDetailRow;
  /** The caller may not write canaries, so the data API sent the spec with its credentials masked. */
  secretsMasked: boolean;
}

/**
 * The drawer's Spec tab (spec 2 section 2.3): the check's entry of its canary's spec, as YAML,
 * under the list it sits in (`http:`, `tcp:`, …) so it can be pasted back into a canary.
 */
export function CheckSpecTab({ check, secretsMasked }: CheckSpecTabProps) {
  // The database keeps jsonb keys in its own order; name, description and icon read best first.
  const { name, description, icon, ...rest } = check.spec;
  const ordered = {
    name,
    ...(description === undefined ? {} : { description }),
    ...(icon === undefined ? {} : { icon }),
    ...rest,
  };
  const yaml = stringify({ [check.type]: [ordered] });
  return (
    <div className="relative min-h-0">
      {secretsMasked && <p className="mb-2 text-xs text-slate-500">{CHECK_DRAWER_TEXTS.secretsMasked}</p>}
      <CopyButton text={yaml} className="absolute top-2 right-2" />
      <pre
        aria-label="Check spec"
        className="max-h-[50vh] overflow-auto rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800"
      >
        {yaml}
      </pre>
    </div>
  );
}
