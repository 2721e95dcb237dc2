export * from './storage-conformance.js';
