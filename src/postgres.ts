/**
 * strongroom/postgres: Storage in one PostgreSQL table. Needs the optional peer dependency `postgres`
 * (`npm i postgres`).
 *
 * @packageDocumentation
 */
export { PostgresStorage, type PostgresStorageOptions } from './adapters/storage/postgres/postgres-storage.js';
