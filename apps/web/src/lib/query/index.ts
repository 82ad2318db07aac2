export { createQueryClient, queryClient, shouldRetry } from './client.ts';
export {
  type CallMutationOptions,
  type CallOptions,
  fetchCall,
  getCallData,
  invalidateCall,
  setCallData,
  useCall,
  useCallMutation,
} from './hooks.ts';
export { type CallKey, callKey } from './keys.ts';
