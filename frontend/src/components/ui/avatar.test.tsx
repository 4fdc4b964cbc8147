import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar, initials } from './avatar';

describe('initials', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initials('Margaret Ellison')).toBe('ME');
    expect(initials('  ana  maría   lópez ')).toBe('AL');
    expect(initials('Cher')).toBe('C');
    expect(initials('')).toBe('');
  });
});

describe('Avatar', () => {
  it('shows the initials, named, while the image has not loaded; 40 px round by default', () => {
    render(<Avatar src="/images/portraits/margaret.svg" name="Margaret Ellison" />);
    const fallback = screen.getByRole('img', { name: 'Margaret Ellison' });
    expect(fallback).toHaveTextContent('ME');
    const root = fallback.parentElement!;
    expect(root).toHaveStyle({ width: '40px', height: '40px' });
    expect(root).toHaveClass('rounded-full');
  });
});
