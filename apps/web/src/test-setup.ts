import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { queryClient } from './lib/query/client.ts';

afterEach(() => {
  cleanup();
  // Each test starts with an empty cache (the hooks use the app's one client).
  queryClient.clear();
  localStorage.clear();
  sessionStorage.clear();
});
