import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FacetDropdown, facetSummary, type FacetOption } from '@/components/ui/facet-dropdown';

const options: FacetOption[] = [
  { value: 'http', label: 'HTTP' },
  { value: 'dns', label: 'DNS' },
  { value: 'tcp', label: 'TCP' },
  { value: 'icmp', label: 'ICMP' },
  { value: 'k8s' },
];

describe('facetSummary', () => {
  it("shows 'All' when nothing is selected", () => {
    expect(facetSummary([], options)).toBe('All');
  });

  it('lists the labels of fewer than 4 selected items', () => {
    expect(facetSummary(['http'], options)).toBe('HTTP');
    expect(facetSummary(['http', 'dns', 'k8s'], options)).toBe('HTTP, DNS, k8s');
  });

  it('shows a count from 4 selected items on', () => {
    expect(facetSummary(['http', 'dns', 'tcp', 'icmp'], options)).toBe('4 selected');
    expect(facetSummary(['http', 'dns', 'tcp', 'icmp', 'k8s'], options)).toBe('5 selected');
  });
});

describe('FacetDropdown', () => {
  function Harness({ onChange }: { onChange?: (value: string[]) => void }) {
    const [value, setValue] = useState<string[]>([]);
    return (
      <FacetDropdown
        label="Type"
        options={options}
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange?.(next);
        }}
      />
    );
  }

  it('selects several values and summarises them on the trigger', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn<(value: string[]) => void>();
    render(<Harness onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: /Type/ });
    expect(trigger).toHaveTextContent('Type: All');
    expect(screen.getByRole('button', { name: 'Type: All' })).toBe(trigger);

    await user.click(trigger);
    await user.click(screen.getByRole('checkbox', { name: 'DNS' }));
    await user.click(screen.getByRole('checkbox', { name: 'HTTP' }));
    // Values follow the options' order, not the click order.
    expect(onChange).toHaveBeenLastCalledWith(['http', 'dns']);
    expect(trigger).toHaveTextContent('Type: HTTP, DNS');

    await user.click(screen.getByRole('checkbox', { name: 'TCP' }));
    await user.click(screen.getByRole('checkbox', { name: 'ICMP' }));
    expect(trigger).toHaveTextContent('Type: 4 selected');

    await user.click(screen.getByRole('checkbox', { name: 'DNS' }));
    expect(screen.getByRole('checkbox', { name: 'DNS' })).not.toBeChecked();
    expect(trigger).toHaveTextContent('Type: HTTP, TCP, ICMP');
  });

  it('clears the selection', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: /Type/ }));
    await user.click(screen.getByRole('checkbox', { name: 'k8s' }));
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByRole('button', { name: /Type/ })).toHaveTextContent('Type: All');
  });

  it('is usable with the keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab();
    await user.keyboard('{Enter}');
    const first = screen.getByRole('checkbox', { name: 'HTTP' });
    expect(first).toHaveFocus();
    await user.keyboard(' ');
    expect(first).toBeChecked();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('checkbox', { name: 'HTTP' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Type/ })).toHaveTextContent('Type: HTTP');
  });
});
