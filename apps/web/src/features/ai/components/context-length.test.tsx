import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { setLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/test-utils/render';
import { ContextLength } from './context-length';

beforeEach(() => setLanguage('zh-CN'));
afterEach(cleanup);

describe("the model table's context column", () => {
  it('shows a model saved with 0 as the default it is used with, 8192', () => {
    renderWithProviders(<ContextLength value={0} />);
    expect(screen.getByText('8192')).toBeInTheDocument();
    expect(screen.getByText('默认')).toBeInTheDocument();
    expect(screen.queryByText('0')).not.toBeInTheDocument();
  });

  it("shows a model's own context as it is, in both languages", () => {
    renderWithProviders(<ContextLength value={32000} />);
    expect(screen.getByText('32000')).toBeInTheDocument();
    expect(screen.queryByText('默认')).not.toBeInTheDocument();
    cleanup();
    setLanguage('en');
    renderWithProviders(<ContextLength value={0} />);
    expect(screen.getByText('default')).toBeInTheDocument();
  });
});
