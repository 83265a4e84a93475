import { PLAYBOOK_TEXTS } from '@lookout/contracts';
import { Link } from 'react-router';
import type { RunRow } from '../api/run-api';

/** The page of a run's resource: catalog items and components have one; checks open in the health drawer. */
function resourceLink(run: RunRow): { kind: string; name: string; href: string } | undefined {
  if (run.config) {
    return {
      kind: PLAYBOOK_TEXTS.resourceKinds.config,
      name: run.config.name ?? run.config.id,
      href: `/catalog/${run.config.id}`,
    };
  }
  if (run.component) {
    return {
      kind: PLAYBOOK_TEXTS.resourceKinds.component,
      name: run.component.name ?? run.component.id,
      href: `/topology/${run.component.id}`,
    };
  }
  if (run.check) {
    return {
      kind: PLAYBOOK_TEXTS.resourceKinds.check,
      name: run.check.name ?? run.check.id,
      href: `/health?checkId=${encodeURIComponent(run.check.id)}`,
    };
  }
  return undefined;
}

/** The catalog item, component or check a run is about, linked to where it is shown. */
export function RunResource({ run }: { run: RunRow }) {
  const link = resourceLink(run);
  if (!link) return <span className="text-slate-400">-</span>;
  return (
    <span className="flex min-w-0 flex-col">
      <span className="text-xs text-slate-500">{link.kind}</span>
      <Link
        to={link.href}
        onClick={(event) => event.stopPropagation()}
        className="truncate text-sky-700 hover:underline"
        title={link.name}
      >
        {link.name}
      </Link>
    </span>
  );
}

/** Who started a run: a person's name, else 'System' for event and webhook triggers. */
export function triggeredBy(run: RunRow, system: string): string {
  const person = run.created_by;
  if (person && typeof person === 'object') return person.name || person.email || person.id;
  return typeof person === 'string' ? person : system;
}
