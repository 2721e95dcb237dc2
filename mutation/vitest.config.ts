// The vitest configuration Stryker runs: the project's own, with the tests narrowed to one group's (MUTATION_GROUP).
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.js';
import { GROUPS } from './groups.mjs';

const group = GROUPS[process.env.MUTATION_GROUP as keyof typeof GROUPS];
if (!group) throw new Error(`MUTATION_GROUP must name one of: ${Object.keys(GROUPS).join(', ')}`);

// One run over MemoryStorage: without the projects, which would run their own includes (every storage kind) instead.
export default defineConfig({ ...base, test: { ...base.test, projects: undefined, include: group.tests } });
