import { SHELL_MESSAGES, VIEW_MESSAGES } from '@lookout/contracts';
import { TriangleAlert } from 'lucide-react';
import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';

/** A readable one-line account of anything a component or route may throw. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string' && error.trim()) return error;
  if (typeof error === 'object' && error !== null) {
    // Router error responses (a 404 thrown by a loader, for instance) carry status and text.
    if ('status' in error && typeof error.status === 'number') {
      const text = 'statusText' in error && typeof error.statusText === 'string' ? error.statusText : '';
      return `${error.status} ${text}`.trim();
    }
    if ('message' in error && typeof error.message === 'string' && error.message.trim()) return error.message;
  }
  return VIEW_MESSAGES.unknownError;
}

export interface ErrorPanelProps {
  error: unknown;
  onRetry: () => void;
}

/** What a crashed page shows: the spec's apology, the error behind a disclosure, a retry. */
export function ErrorPanel({ error, onRetry }: ErrorPanelProps) {
  return (
    <div role="alert" className="mx-auto my-8 w-full max-w-2xl rounded-lg border border-red-200 bg-white p-6 shadow-sm">
      <div className="flex items-start gap-3">
        <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-red-600" />
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-slate-900">{VIEW_MESSAGES.renderError}</h2>
          <details className="mt-3 text-sm text-slate-600">
            <summary className="cursor-pointer select-none font-medium text-slate-700 hover:text-slate-900">
              {SHELL_MESSAGES.errorDetails}
            </summary>
            <pre className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800">
              {describeError(error)}
            </pre>
          </details>
          <button
            type="button"
            onClick={onRetry}
            className="mt-4 inline-flex items-center rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600"
          >
            {SHELL_MESSAGES.tryAgain}
          </button>
        </div>
      </div>
    </div>
  );
}

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** When this value changes (for example the current path), a shown error is cleared. */
  resetKey?: unknown;
}

interface ErrorBoundaryState {
  // Kept apart from `error` because JavaScript can throw `undefined`.
  hasError: boolean;
  error: unknown;
}

/** Catches render errors below it and shows `ErrorPanel`; "Try again" renders the children anew. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { hasError: false, error: undefined };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { hasError: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // React logs the error itself; the component stack is what makes it traceable.
    console.error('Render error caught by ErrorBoundary', error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.hasError && previous.resetKey !== this.props.resetKey) this.reset();
  }

  private readonly reset = () => {
    this.setState({ hasError: false, error: undefined });
  };

  override render() {
    if (this.state.hasError) return <ErrorPanel error={this.state.error} onRetry={this.reset} />;
    return this.props.children;
  }
}
