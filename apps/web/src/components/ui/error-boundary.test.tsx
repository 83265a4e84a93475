import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary, describeError } from './error-boundary';

let shouldThrow = true;
function Fragile() {
  if (shouldThrow) throw new Error('Cannot read the topology');
  return <p>Topology loaded</p>;
}

describe('ErrorBoundary', () => {
  beforeEach(() => {
    shouldThrow = true;
    // React reports every caught render error on the console; keep the test output readable.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows 'Sorry.. there was an error' with the error message in a disclosure", async () => {
    const user = userEvent.setup();
    render(
      <ErrorBoundary>
        <Fragile />
      </ErrorBoundary>,
    );

    const panel = screen.getByRole('alert');
    expect(panel).toHaveTextContent('Sorry.. there was an error');
    const message = screen.getByText('Cannot read the topology');
    expect(message).not.toBeVisible();

    await user.click(screen.getByText('Error details'));
    expect(message).toBeVisible();
  });

  it('renders the children again on Try again', async () => {
    const user = userEvent.setup();
    render(
      <ErrorBoundary>
        <Fragile />
      </ErrorBoundary>,
    );

    shouldThrow = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(screen.getByText('Topology loaded')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('clears the error when its reset key changes', async () => {
    const user = userEvent.setup();
    function Page() {
      const [path, setPath] = useState('/broken');
      return (
        <>
          <button type="button" onClick={() => setPath('/other')}>
            Go elsewhere
          </button>
          <ErrorBoundary resetKey={path}>{path === '/broken' ? <Fragile /> : <p>Other page</p>}</ErrorBoundary>
        </>
      );
    }
    render(<Page />);
    expect(screen.getByRole('alert')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Go elsewhere' }));

    expect(screen.getByText('Other page')).toBeInTheDocument();
  });
});

describe('describeError', () => {
  it('reads errors, strings and router error responses', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError('plain text')).toBe('plain text');
    expect(describeError({ status: 503, statusText: 'Service Unavailable' })).toBe('503 Service Unavailable');
    expect(describeError(undefined)).toBe('Unknown error');
  });
});
