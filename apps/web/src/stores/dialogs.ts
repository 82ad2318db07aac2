import { create } from 'zustand';

/**
 * The four ways the payment dialog opens (spec §2): a given product, the next level above the
 * current one, the first product at level 300 or above, or a credit top-up.
 */
export type PaymentOpenMode =
  | { mode: 'product'; productId: string }
  | { mode: 'next_level' }
  | { mode: 'level_300' }
  | { mode: 'credit' };

/** Which of the global dialogs (payment, redeem, balance detail) is open; GlobalMounts renders them. */
interface DialogState {
  payment: PaymentOpenMode | null;
  redeemOpen: boolean;
  balanceDetailOpen: boolean;
  openPayment: (mode: PaymentOpenMode) => void;
  closePayment: () => void;
  openRedeem: () => void;
  closeRedeem: () => void;
  openBalanceDetail: () => void;
  closeBalanceDetail: () => void;
}

export const useDialogStore = create<DialogState>((set) => ({
  payment: null,
  redeemOpen: false,
  balanceDetailOpen: false,
  openPayment: (payment) => set({ payment }),
  closePayment: () => set({ payment: null }),
  openRedeem: () => set({ redeemOpen: true }),
  closeRedeem: () => set({ redeemOpen: false }),
  openBalanceDetail: () => set({ balanceDetailOpen: true }),
  closeBalanceDetail: () => set({ balanceDetailOpen: false }),
}));

/** Opens the credit top-up dialog (the insufficient-credits prompt links here). */
export const openCreditTopUp = () => useDialogStore.getState().openPayment({ mode: 'credit' });
/** Opens the subscription payment box for the next level up. */
export const openUpgrade = () => useDialogStore.getState().openPayment({ mode: 'next_level' });
