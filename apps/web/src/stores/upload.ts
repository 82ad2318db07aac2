import { create } from 'zustand';

/**
 * The upload leave guard (spec §4, credits). While a file uploads, leaving the page asks first;
 * when the upload cannot lead anywhere any more (the plan's credits are used up, credit_type 3),
 * the credit-shortage flow marks the upload as leavable and leaving is allowed without asking.
 * Upload screens reset the flag when they start a new upload.
 */
interface UploadGuardState {
  /** Whether leaving during an upload is allowed without a confirmation. */
  leaveAllowed: boolean;
  setLeaveAllowed: (allowed: boolean) => void;
}

export const useUploadGuardStore = create<UploadGuardState>((set) => ({
  leaveAllowed: false,
  setLeaveAllowed: (leaveAllowed) => set({ leaveAllowed }),
}));
