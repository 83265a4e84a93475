import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyToClipboard, CopyButton } from '@/components/ui/copy-to-clipboard';
import { toast } from '@/components/ui/toast';

vi.mock('@/components/ui/toast', () => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() },
}));

const clipboardDescriptor = Object.getOwnPropertyDescriptor(window.navigator, 'clipboard');

function setClipboard(clipboard: Partial<Clipboard> | undefined) {
  Object.defineProperty(window.navigator, 'clipboard', { configurable: true, value: clipboard });
}

describe('copyToClipboard', () => {
  beforeEach(() => {
    vi.mocked(toast.success).mockClear();
    vi.mocked(toast.error).mockClear();
  });

  afterEach(() => {
    if (clipboardDescriptor) Object.defineProperty(window.navigator, 'clipboard', clipboardDescriptor);
    else Reflect.deleteProperty(window.navigator, 'clipboard');
  });

  it("toasts 'Copied to clipboard' on success", async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    setClipboard({ writeText });
    await expect(copyToClipboard('kubectl get canaries')).resolves.toBe(true);
    expect(writeText).toHaveBeenCalledWith('kubectl get canaries');
    expect(toast.success).toHaveBeenCalledWith('Copied to clipboard');
  });

  it("toasts 'Clipboard not available' without a clipboard", async () => {
    setClipboard(undefined);
    await expect(copyToClipboard('x')).resolves.toBe(false);
    expect(toast.error).toHaveBeenCalledWith('Clipboard not available');
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("toasts 'Failed to copy to clipboard' when writing fails", async () => {
    setClipboard({ writeText: vi.fn<(text: string) => Promise<void>>().mockRejectedValue(new Error('denied')) });
    await expect(copyToClipboard('x')).resolves.toBe(false);
    expect(toast.error).toHaveBeenCalledWith('Failed to copy to clipboard');
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('copies from the button without triggering a surrounding click handler', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    const onRowClick = vi.fn();
    render(
      <div onClick={onRowClick}>
        <CopyButton text="abc-123" label="Copy ID" />
      </div>,
    );
    // user-event installs its own clipboard stub on setup; replace it after.
    setClipboard({ writeText });
    await user.click(screen.getByRole('button', { name: 'Copy ID' }));
    expect(writeText).toHaveBeenCalledWith('abc-123');
    expect(toast.success).toHaveBeenCalledWith('Copied to clipboard');
    expect(onRowClick).not.toHaveBeenCalled();
  });
});
