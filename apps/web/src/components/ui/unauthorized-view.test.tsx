import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UnauthorizedView } from './unauthorized-view';

describe('UnauthorizedView', () => {
  it('says the user may not see the page', () => {
    render(<UnauthorizedView />);

    expect(screen.getByRole('status')).toHaveTextContent(
      'Unauthorized - You do not have permission to access this page',
    );
  });
});
