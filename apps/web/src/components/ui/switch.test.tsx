import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Switch } from '@/components/ui/switch';

function Host({ initial = true, onCheckedChange }: { initial?: boolean; onCheckedChange?: (on: boolean) => void }) {
  const [checked, setChecked] = useState(initial);
  return (
    <Switch
      label="Hide Passing"
      checked={checked}
      onCheckedChange={(next) => {
        setChecked(next);
        onCheckedChange?.(next);
      }}
    />
  );
}

describe('Switch', () => {
  it('is a switch named by its label, showing its state', () => {
    render(<Host />);
    const toggle = screen.getByRole('switch', { name: 'Hide Passing' });
    expect(toggle).toBeChecked();
    expect(toggle).toHaveAttribute('data-state', 'checked');
  });

  it('toggles when its label is clicked', async () => {
    const user = userEvent.setup();
    const onCheckedChange = vi.fn<(on: boolean) => void>();
    render(<Host onCheckedChange={onCheckedChange} />);
    await user.click(screen.getByText('Hide Passing'));
    expect(screen.getByRole('switch')).not.toBeChecked();
    await user.click(screen.getByText('Hide Passing'));
    expect(screen.getByRole('switch')).toBeChecked();
    expect(onCheckedChange.mock.calls).toEqual([[false], [true]]);
  });

  it('toggles when the switch itself is clicked', async () => {
    const user = userEvent.setup();
    render(<Host initial={false} />);
    await user.click(screen.getByRole('switch'));
    expect(screen.getByRole('switch')).toBeChecked();
  });

  it('toggles with Space and Enter once it has focus', async () => {
    const user = userEvent.setup();
    render(<Host />);
    await user.tab();
    expect(screen.getByRole('switch')).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.getByRole('switch')).not.toBeChecked();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('switch')).toBeChecked();
  });

  it('does nothing while disabled', async () => {
    const user = userEvent.setup();
    const onCheckedChange = vi.fn<(on: boolean) => void>();
    render(<Switch label="Hide Passing" checked disabled onCheckedChange={onCheckedChange} />);
    await user.click(screen.getByText('Hide Passing'));
    await user.click(screen.getByRole('switch'));
    expect(onCheckedChange).not.toHaveBeenCalled();
  });
});
