import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Product } from '@vw/contract';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCatalogueStore } from '@/stores/data.ts';
import type { PaymentOpenMode } from '@/stores/dialogs.ts';
import { useUserStore } from '@/stores/user.ts';
import { PaymentDialog } from './PaymentDialog.tsx';

const detail = [
  { country_code: 'CN', title: '', price: 10, discount_price: 10, currency: 'CNY', desc: '{}' },
];
const product = (id: string, product_type: 0 | 1, level: number, recharge_credit: number): Product => ({
  product_id: id,
  product_type,
  title: id,
  level,
  recharge_credit,
  is_free_package: 0,
  after_charge: 0,
  is_annual: 0,
  channel_details: detail,
});
const catalogue = [product('member_200_month', 0, 200, 0), product('credit_1000', 1, 0, 1000)];

beforeEach(() => {
  useUserStore.getState().reset();
  useCatalogueStore.getState().set({ products: [] });
  // The dialog's own product fetch never answers: the products arrive as the startup fetch's do.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => {})),
  );
});
afterEach(() => vi.unstubAllGlobals());

const open = (mode: PaymentOpenMode) =>
  render(
    <App>
      <PaymentDialog mode={mode} onClose={() => {}} />
    </App>,
  );
const tab = (name: string) => screen.getByRole('tab', { name });

describe('payment dialog opening while the products load', () => {
  it('applies the opening once the products arrive', async () => {
    open({ mode: 'next_level' });
    act(() => useCatalogueStore.getState().set({ products: catalogue }));
    await waitFor(() =>
      expect(
        document.querySelector('[data-product-id="member_200_month"]')?.getAttribute('aria-pressed'),
      ).toBe('true'),
    );
    expect(tab('会员套餐')?.getAttribute('aria-selected')).toBe('true');
  });

  it('keeps a tab the user picked before the products arrived', async () => {
    open({ mode: 'next_level' });
    fireEvent.click(tab('积分充值'));
    act(() => useCatalogueStore.getState().set({ products: catalogue }));
    await waitFor(() => expect(document.querySelector('[data-product-id="credit_1000"]')).not.toBeNull());
    expect(tab('积分充值')?.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('pay-needs-membership').textContent).toContain('请升级到基础版以上的套餐');
    expect(document.querySelector('[aria-pressed="true"]')).toBeNull();
  });
});
