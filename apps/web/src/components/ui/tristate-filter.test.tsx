import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TristateFilter, tristateSummary } from '@/components/ui/tristate-filter';
import { serializeTristate, tristateToQueryParam, type TristateSelection } from '@/components/ui/tristate-fns';

const options = [
  { value: 'diff', label: 'Diff' },
  { value: 'CreateInstance', label: 'Create' },
  { value: 'app:web', label: 'app:web' },
];

function Harness() {
  const [value, setValue] = useState<TristateSelection>({});
  return (
    <>
      <TristateFilter label="Change type" options={options} value={value} onChange={setValue} />
      <output data-testid="url">{serializeTristate(value)}</output>
      <output data-testid="query">{tristateToQueryParam(value)}</output>
    </>
  );
}

describe('TristateFilter', () => {
  it('cycles an option through none, include, exclude and back', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: /Change type/ }));

    await user.click(screen.getByRole('button', { name: 'Diff: not filtered' }));
    expect(screen.getByTestId('url')).toHaveTextContent('diff:1');
    expect(screen.getByRole('button', { name: 'Include Diff' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Diff: included' }));
    expect(screen.getByTestId('url')).toHaveTextContent('diff:-1');
    expect(screen.getByTestId('query')).toHaveTextContent('!diff');
    expect(screen.getByRole('button', { name: 'Exclude Diff' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Diff: excluded' }));
    expect(screen.getByTestId('url')).toBeEmptyDOMElement();
  });

  it('sets include and exclude with the + and − buttons and unsets on a second press', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: /Change type/ }));

    await user.click(screen.getByRole('button', { name: 'Include Diff' }));
    await user.click(screen.getByRole('button', { name: 'Exclude app:web' }));
    expect(screen.getByTestId('url')).toHaveTextContent('diff:1,app____web:-1');
    expect(screen.getByTestId('query')).toHaveTextContent('diff,!app____web');
    expect(screen.getByRole('button', { name: /Change type/ })).toHaveTextContent('Diff, !app:web');

    await user.click(screen.getByRole('button', { name: 'Exclude Diff' }));
    expect(screen.getByTestId('url')).toHaveTextContent('diff:-1,app____web:-1');
    await user.click(screen.getByRole('button', { name: 'Exclude Diff' }));
    expect(screen.getByTestId('url')).toHaveTextContent('app____web:-1');

    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByRole('button', { name: /Change type/ })).toHaveTextContent('All');
  });

  it('summarises four or more choices as a count', () => {
    expect(tristateSummary({ a: 1, b: -1, c: 1, d: 1 }, [])).toBe('4 selected');
    expect(tristateSummary({ a: 1, b: -1 }, [{ value: 'a', label: 'A' }])).toBe('A, !b');
    expect(tristateSummary({}, [])).toBe('All');
  });
});
