import { act, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { setMediaPreferences } from '@/test-utils/media';
import { AppProviders } from './app-providers';

function Motion() {
  const { token } = theme.useToken();
  return <span>{token.motion ? 'motion on' : 'motion off'}</span>;
}

describe('AppProviders', () => {
  it('turns antd motion off while the system asks for reduced motion, and back on', () => {
    render(
      <AppProviders>
        <Motion />
      </AppProviders>,
    );
    expect(screen.getByText('motion on')).toBeInTheDocument();
    act(() => setMediaPreferences(['prefers-reduced-motion: reduce']));
    expect(screen.getByText('motion off')).toBeInTheDocument();
    act(() => setMediaPreferences([]));
    expect(screen.getByText('motion on')).toBeInTheDocument();
  });
});
