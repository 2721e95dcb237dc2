// Which storage `strongroom server` keeps its state in, chosen from the environment.
import { MemoryStorage } from '../adapters/memory-storage.js';
import type { Storage } from '../ports/storage.js';

export interface SelectedStorage {
  storage: Storage;
  /** One line for the start banner. */
  description: string;
  warnings: string[];
  close(): Promise<void>;
}

export async function selectStorage(env: Record<string, string | undefined>): Promise<SelectedStorage> {
  if (env.STRONGROOM_STORAGE_URL) {
    throw new Error('STRONGROOM_STORAGE_URL is not supported by this build: PostgreSQL storage is not available yet');
  }
  return {
    storage: new MemoryStorage(),
    description: 'in memory',
    warnings: ['state is kept in memory and lost when the server stops: durable storage is not available in this build'],
    close: async () => undefined,
  };
}
