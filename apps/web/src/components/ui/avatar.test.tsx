import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar, initialsOf } from './avatar';

describe('initialsOf', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['Grace Brewster Murray Hopper', 'GH'],
    ['cher', 'C'],
    ['  ', '?'],
    ['Émile Zola', 'ÉZ'],
  ])('%j → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});

describe('Avatar', () => {
  it('shows the picture, and the initials once it fails to load', () => {
    const { container } = render(<Avatar name="Ada Lovelace" src="/ada.png" />);
    const image = container.querySelector('img');
    expect(image).toHaveAttribute('src', '/ada.png');
    fireEvent.error(image!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('AL')).toBeInTheDocument();
  });

  it('shows the initials without a picture', () => {
    render(<Avatar name="Bob Builder" src={null} />);
    expect(screen.getByText('BB')).toBeInTheDocument();
  });
});
