/**
 * strongroom/postgres: Storage in one PostgreSQL table, and its copy side for backups. Needs the optional peer
 * dependency `postgres` (`npm i postgres`).
 *
 * @packageDocumentation
 */
export { PostgresStorage, type PostgresStorageOptions } from './adapters/storage/postgres/postgres-storage.js';
export { PostgresCopy } from './adapters/storage/postgres/postgres-copy.js';
