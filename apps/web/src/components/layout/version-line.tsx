import { FRONTEND_VERSION } from '@lookout/contracts';

export interface VersionLineProps {
  /** The backend's version, `NA` when it could not be read, `undefined` while loading. */
  backendVersion: string | undefined;
}

/**
 * `frontend 1.0.788 · backend 0.1.0`, as the user menu shows it (spec 1, section 2.3).
 * The test id and label are read by end-to-end tests; keep them stable.
 */
export function VersionLine({ backendVersion }: VersionLineProps) {
  const loading = backendVersion === undefined;
  return (
    <div
      role="group"
      aria-label="Version"
      aria-busy={loading}
      data-testid="version-line"
      className="px-2 py-1.5 font-mono text-xs text-slate-500"
    >
      <span>frontend {FRONTEND_VERSION}</span>
      <span aria-hidden className="text-slate-300">
        {' · '}
      </span>
      <span>backend {loading ? '…' : backendVersion}</span>
    </div>
  );
}
