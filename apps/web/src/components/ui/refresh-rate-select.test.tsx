import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RefreshRateSelect, useRefreshRateParam } from '@/components/ui/refresh-rate-select';

function Page() {
  const [rate, setRate] = useRefreshRateParam();
  const location = useLocation();
  return (
    <>
      <RefreshRateSelect value={rate} onChange={setRate} />
      <output data-testid="search">{location.search}</output>
    </>
  );
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/health', element: <Page /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
}

describe('RefreshRateSelect', () => {
  it("defaults to 'None'", () => {
    renderAt('/health');
    expect(screen.getByRole('combobox', { name: 'Refresh rate' })).toHaveValue('None');
  });

  it('keeps the rate in the refresh URL parameter', async () => {
    const user = userEvent.setup();
    renderAt('/health?tab=all');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Refresh rate' }), '30s');
    expect(screen.getByTestId('search')).toHaveTextContent('?tab=all&refresh=30s');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Refresh rate' }), 'None');
    expect(screen.getByTestId('search')).toHaveTextContent('?tab=all');
  });

  it('reads the rate from the URL and ignores invalid values', () => {
    renderAt('/health?refresh=5m');
    expect(screen.getByRole('combobox', { name: 'Refresh rate' })).toHaveValue('5m');
  });

  it('shows None for an invalid rate in the URL', () => {
    renderAt('/health?refresh=fast');
    expect(screen.getByRole('combobox', { name: 'Refresh rate' })).toHaveValue('None');
  });
});
