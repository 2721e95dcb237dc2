// Global setup of the engines:postgres project: one throwaway PostgreSQL for the whole project, in which every
// testStorage() takes a table of its own. vitest 4 starts a fresh worker process for every test file, so a cluster
// per worker would be a cluster start per file; one per project costs one start.
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres({ maxConnections: 1000 });
  project.provide('testPostgresUrl', server.url);
  return () => server.stop();
}
