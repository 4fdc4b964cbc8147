import { fireEvent, render, within } from '@testing-library/react';
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
  it('is a lazy, sized, named image over the initials; 40 px round by default', () => {
    const { container } = render(
      <Avatar src="/images/portraits/margaret.svg" name="Margaret Ellison" />,
    );
    const image = within(container).getByRole('img', { name: 'Margaret Ellison' });
    expect(image.tagName).toBe('IMG');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveAttribute('decoding', 'async');
    expect(image).toHaveAttribute('width', '40');
    expect(image).toHaveAttribute('height', '40');
    const root = image.parentElement!;
    expect(root).toHaveTextContent('ME');
    expect(root).toHaveStyle({ width: '40px', height: '40px' });
    expect(root).toHaveClass('rounded-full');
  });

  it('shows the initials, named, when the image cannot load', () => {
    const { container } = render(
      <Avatar src="/images/portraits/missing.svg" name="Margaret Ellison" size={48} />,
    );
    fireEvent.error(within(container).getByRole('img', { name: 'Margaret Ellison' }));
    const fallback = within(container).getByRole('img', { name: 'Margaret Ellison' });
    expect(fallback.tagName).toBe('SPAN');
    expect(fallback).toHaveTextContent('ME');
    expect(fallback.parentElement).toHaveStyle({ width: '48px', height: '48px' });
    expect(container.querySelector('img')).toBeNull();
  });
});
